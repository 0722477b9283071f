// The compatibility page. Everything in a report came from a server and is untrusted: the DOM is built with
// createElement and textContent only (never innerHTML), and no server string becomes an attribute that runs code.
(function () {
  "use strict";
  var VERDICTS = ["works", "degraded", "blocked", "unknown"];
  var RANK = { works: 0, unknown: 1, degraded: 2, blocked: 3 };
  var params = new URLSearchParams(location.search);
  var token = params.get("token");
  var state = { hosts: {}, reports: [], current: null, compare: null, selected: null };

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = clean(attrs[key]);
      else if (key === "className") node.className = attrs[key];
      else node.setAttribute(key, String(attrs[key]));
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  // control, bidi-override and isolate characters out (as the HTML report drops them): ANSI escapes show as text
  var UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function clean(value) { return String(value).replace(UNSAFE, ""); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function safeVerdict(v) { return VERDICTS.indexOf(v) >= 0 ? v : "unknown"; }
  function status(text, isError) {
    var node = $("status"); node.textContent = clean(text); node.className = isError ? "error" : "muted";
  }

  function api(method, path, body, withToken) {
    var headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (withToken && token) headers["X-Hostcompat-Token"] = token;
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (response) {
        return response.json().then(function (data) {
          if (!response.ok) throw new Error((data && data.error && data.error.message) || ("HTTP " + response.status));
          return data;
        });
      });
  }

  // --- theme ---------------------------------------------------------------------------------------------------
  var THEMES = ["auto", "dark", "light"];
  function applyTheme(name) {
    if (name === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", name);
    $("theme").textContent = "Theme: " + name;
    try { localStorage.setItem("hostcompat-theme", name); } catch (e) { /* storage may be off */ }
  }
  $("theme").addEventListener("click", function () {
    var now = document.documentElement.getAttribute("data-theme") || "auto";
    applyTheme(THEMES[(THEMES.indexOf(now) + 1) % THEMES.length]);
  });
  try { applyTheme(params.get("theme") || localStorage.getItem("hostcompat-theme") || "auto"); } catch (e) { applyTheme("auto"); }

  // --- checks --------------------------------------------------------------------------------------------------
  // a typed command or URL may hold a secret: it is not shown back, the report's own (redacted) name is
  function follow(started, label) {
    var list = $("progress"); clear(list);
    status("checking " + (label || "the server") + " …");
    return new Promise(function (resolve) {
      var source = new EventSource(started.links.events);
      function end() { source.close(); resolve(api("GET", started.links.report)); }
      source.addEventListener("progress", function (e) { list.appendChild(el("li", { text: JSON.parse(e.data).message })); });
      source.addEventListener("done", end);
      source.addEventListener("failed", end);
      source.onerror = end;
    }).then(function (run) {
      label = label || (run.report ? reportLabel(run.report) : "the server");
      if (run.status === "failed") status("the check failed: " + (run.error || "unknown error"), true);
      else status("checked " + label);
      if (run.report) addReport(run.id, label, run.report);
      return run;
    });
  }
  function start(body, withToken, label) {
    return api("POST", "/api/check", body, withToken)
      .then(function (started) { return follow(started, label); })
      .catch(function (error) { status(error.message, true); });
  }
  // a host config lists servers (mcpServers, servers, context_servers; Codex: TOML; VS Code and Zed: JSON with
  // comments); a snapshot has a schemaVersion. The server reads either strictly and names what is wrong.
  var CONFIG_KEYS = ["mcpServers", "servers", "context_servers"];
  function fileKind(name, text) {
    if (/\.toml$/i.test(name)) return { kind: "config" };
    var data;
    try { data = JSON.parse(text); } catch (e) {
      if (CONFIG_KEYS.some(function (k) { return text.indexOf('"' + k + '"') >= 0; })) return { kind: "config" };
      return { error: "that file is neither JSON nor a host config: " + e.message };
    }
    var object = data !== null && typeof data === "object" && !Array.isArray(data);
    if (object && data.schemaVersion === undefined && CONFIG_KEYS.some(function (k) { return k in data; })) return { kind: "config" };
    return { kind: "snapshot", value: data };
  }
  $("upload-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var file = $("snapshot-file").files[0];
    if (!file) { status("choose a snapshot or host config file first", true); return; }
    file.text().then(function (text) {
      var found = fileKind(file.name, text);
      if (found.error) { status(found.error, true); return; }
      if (found.kind === "snapshot") return start({ snapshot: found.value }, false, file.name);
      if (!token) {
        status("a config file starts the servers it lists: open the address printed by hostcompat serve (with its token) to check it", true);
        return;
      }
      return start({ config: { name: file.name, text: text } }, true, file.name);
    });
  });
  $("live-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var target = $("target").value.trim();
    if (!target) { status("enter a command or a URL", true); return; }
    var body = /^https?:\/\//i.test(target) ? { url: target } : { command: target };
    start(body, true, null);
  });
  if (!token) {
    $("token-note").textContent = "open the address printed by hostcompat serve (with its token) to probe commands and URLs";
    $("live-submit").disabled = true;
  }

  // --- reports ---------------------------------------------------------------------------------------------------
  function addReport(id, label, doc) {
    var index = state.reports.length;
    var name = "#" + (index + 1) + " " + label;
    state.reports.push({ id: id, label: label, name: name, doc: doc });
    $("report-pick").appendChild(el("option", { value: index, text: name }));
    $("diff-pick").appendChild(el("option", { value: index, text: name }));
    $("report-pick").value = String(index);
    state.current = index; state.selected = null;
    render();
  }
  $("report-pick").addEventListener("change", function () { state.current = Number($("report-pick").value); state.selected = null; render(); });
  $("diff-pick").addEventListener("change", function () {
    var v = $("diff-pick").value; state.compare = v === "" ? null : Number(v); render();
  });
  ["lane", "kind", "sort"].forEach(function (id) { $(id).addEventListener("change", render); });
  document.querySelectorAll("input[data-verdict]").forEach(function (box) { box.addEventListener("change", render); });

  function servers(doc) { return Array.isArray(doc && doc.servers) ? doc.servers : []; }
  function reportLabel(doc) {
    var names = servers(doc).map(serverName);
    if (names.length <= 1) return names[0] || "empty report";
    return names.length + " servers: " + names.slice(0, 2).join(", ") + (names.length > 2 ? ", …" : "");
  }
  // the verdict with hostcompat's client rules in front, when they make it better
  var PROXY = "hostcompat proxy";
  function proxied(host) {
    var p = host.withProxy;
    if (!p || typeof p !== "object" || RANK[safeVerdict(p.verdict)] === undefined) return null;
    return RANK[safeVerdict(p.verdict)] < RANK[safeVerdict(host.verdict)] ? p : null;
  }
  function hostsOf(server) { return Array.isArray(server.hosts) ? server.hosts : []; }
  // a config's server goes by its entry's name (two entries may run the same server); others by the server's name
  function serverName(server) {
    var info = server.server || {};
    var target = server.target || {};
    if (target.config && target.display) {
      var suffix = " (" + String(target.config) + ")", display = String(target.display);
      return display.slice(-suffix.length) === suffix ? display.slice(0, -suffix.length) : display;
    }
    return String(info.name || target.display || "server");
  }
  function serverTitle(server) {
    var info = server.server || {}, target = server.target || {};
    return [serverName(server), info.name && info.name !== serverName(server) ? "server " + info.name : "",
      target.config ? "from " + target.config : ""].filter(Boolean).join(" · ");
  }
  function verdictFor(host, lane) {
    if (lane !== "all" && host.lanes && host.lanes[lane]) return safeVerdict(host.lanes[lane].verdict);
    return safeVerdict(host.verdict);
  }
  function worst(server, lane) {
    return hostsOf(server).reduce(function (acc, h) { return Math.max(acc, RANK[verdictFor(h, lane)]); }, -1);
  }
  function columns(list) {
    var seen = {}, out = [], kind = $("kind").value;
    list.forEach(function (server) {
      hostsOf(server).forEach(function (h) {
        var id = String(h.hostId);
        if (seen[id]) return;
        seen[id] = true;
        if (kind !== "all" && kindOf(h) !== kind) return;
        out.push({ id: id, label: String(h.hostLabel || id) });
      });
    });
    return out;
  }

  // the report's own host kind (older reports: the catalog's, from /api/hosts)
  function kindOf(host) {
    var known = state.hosts[String(host.hostId)];
    return String(host.hostKind || (known && known.kind) || "?");
  }

  function render() {
    renderMatrix(); renderDiff(); renderDetail();
  }

  function renderMatrix() {
    var box = $("matrix"); clear(box);
    var report = state.reports[state.current];
    if (!report) {
      box.appendChild(el("p", { className: "empty", text: "No report yet: check a snapshot file, or probe a command or URL, above." }));
      return;
    }
    var lane = $("lane").value, sort = $("sort").value;
    var show = {};
    document.querySelectorAll("input[data-verdict]").forEach(function (b) { show[b.dataset.verdict] = b.checked; });
    var list = servers(report.doc).map(function (s, i) { return { server: s, index: i }; });
    if (sort === "name") list.sort(function (a, b) { return serverName(a.server).localeCompare(serverName(b.server)); });
    if (sort !== "name") list.sort(function (a, b) {
      var d = worst(a.server, lane) - worst(b.server, lane); return sort === "worst" ? -d : d;
    });
    var cols = columns(servers(report.doc));
    var head = el("tr", {}, [el("th", { scope: "col", text: "server" })]);
    cols.forEach(function (c) { head.appendChild(el("th", { scope: "col", className: "host", text: c.label })); });
    var body = el("tbody"), hiddenRows = 0;
    var all = VERDICTS.every(function (v) { return show[v]; });
    list.forEach(function (row) {
      var server = row.server;
      // a server none of whose verdicts the filters show is left out (its chips would all be faded)
      if (!all && !server.error && !hostsOf(server).some(function (h) {
        return cols.some(function (c) { return c.id === String(h.hostId); }) && show[verdictFor(h, lane)];
      })) { hiddenRows++; return; }
      var tr = el("tr", { "data-server": row.index }, [el("th", { scope: "row", text: serverName(server), title: serverTitle(server) })]);
      if (server.error) tr.appendChild(el("td", { colspan: Math.max(cols.length, 1), className: "error", text: String(server.error) }));
      else cols.forEach(function (c) {
        var host = hostsOf(server).filter(function (h) { return String(h.hostId) === c.id; })[0];
        var td = el("td");
        if (host) {
          var v = verdictFor(host, lane);
          var better = lane === "all" ? proxied(host) : null;
          var said = v + (better ? "; " + safeVerdict(better.verdict) + " with " + PROXY + " in front" : "");
          var chip = el("button", {
            type: "button", className: "chip " + v + (better ? " proxy" : "") + (show[v] ? "" : " faded"),
            "data-verdict": v, "data-host": c.id,
            "data-server": row.index, "aria-pressed": isSelected(row.index, c.id) ? "true" : "false",
            "aria-label": serverName(server) + " on " + c.label + ": " + said, title: c.label + ": " + said,
            text: v.charAt(0).toUpperCase()  // W, D, B, U as in the HTML report; the colour and the title say more
          });
          chip.addEventListener("click", function () { state.selected = { server: row.index, host: c.id }; render(); $("detail").focus(); });
          td.appendChild(chip);
        }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    box.appendChild(el("table", { "data-report": report.id }, [el("thead", {}, [head]), body]));
    if (hiddenRows) box.appendChild(el("p", { className: "muted note", text: hiddenRows + " server(s) with no verdict the filters show are hidden." }));
  }
  function isSelected(server, host) { return state.selected && state.selected.server === server && state.selected.host === host; }

  function renderDetail() {
    var box = $("detail"); clear(box);
    var report = state.reports[state.current];
    if (report && !state.selected) {
      box.appendChild(el("p", { className: "empty", text: "Choose a verdict in the matrix (click it, or Tab to it and press Enter) to see that host's findings and the server's widgets." }));
      return;
    }
    if (!report) return;
    var server = servers(report.doc)[state.selected.server];
    if (!server) return;
    var host = hostsOf(server).filter(function (h) { return String(h.hostId) === state.selected.host; })[0];
    if (!host) return;
    var lane = $("lane").value;
    var v = safeVerdict(host.verdict);
    box.appendChild(el("h2", {}, [document.createTextNode(clean(serverName(server) + " on " + String(host.hostLabel) + " ")),
      el("span", { className: "chip " + v, text: v })]));
    var lanes = host.lanes || {};
    box.appendChild(el("p", { className: "muted", text: "kind: " + kindOf(host) + " · apps lane: " +
      safeVerdict((lanes.apps || {}).verdict) + " · server lane: " + safeVerdict((lanes.server || {}).verdict) +
      " · weakest provenance: " + String(host.provenance || "none") }));
    var better = proxied(host);
    if (better) {
      var rules = Array.isArray(better.rules) ? better.rules.map(String) : [];
      var fixed = Array.isArray(better.fixed) ? better.fixed.map(String) : [];
      box.appendChild(el("p", { className: "proxy-note" }, [
        document.createTextNode("With "), el("code", { text: PROXY }), document.createTextNode(" in front: "),
        el("span", { className: "chip " + safeVerdict(better.verdict), text: safeVerdict(better.verdict) }),
        document.createTextNode(clean(" — its client rules for " + String(better.client || "this host") +
          (rules.length ? " (" + rules.join(", ") + ")" : "") + " rewrite what the server sends" +
          (fixed.length ? ", and " + fixed.join(", ") + " go away." : ".")))
      ]));
    }
    ["apps", "server"].forEach(function (name) {
      var why = Array.isArray((lanes[name] || {}).unknown) ? lanes[name].unknown : [];
      why.forEach(function (reason) { box.appendChild(el("p", { className: "muted", text: name + " lane unknown: " + String(reason) })); });
    });
    var findings = (Array.isArray(host.findings) ? host.findings : []).filter(function (f) { return lane === "all" || f.lane === lane; });
    if (!findings.length) box.appendChild(el("p", { className: "empty", text: lane === "all" ? "No findings on this host." : "No findings in the " + lane + " lane on this host." }));
    var fixedIds = better && Array.isArray(better.fixed) ? better.fixed.map(String) : [];
    findings.forEach(function (f) { box.appendChild(finding(f, fixedIds.indexOf(String(f.ruleId)) >= 0)); });
    var seen = widgets(server, host);
    if (seen) box.appendChild(seen);
    var hygiene = Array.isArray(server.hygiene) ? server.hygiene : [];
    if (hygiene.length) {
      box.appendChild(el("h3", { text: "The server's own hygiene (whatever the host)" }));
      hygiene.forEach(function (f) { box.appendChild(finding(f)); });
    }
    var events = Array.isArray(server.events) ? server.events : [];
    if (events.length) {
      box.appendChild(el("h3", { text: "Events" }));
      box.appendChild(el("ul", {}, events.map(function (e) { return el("li", { text: String(e.code) + ": " + String(e.message) }); })));
    }
  }
  function finding(f, fixedByProxy) {
    var sev = ["blocker", "degraded", "info"].indexOf(f.severity) >= 0 ? f.severity : "info";
    var rows = [];
    function row(name, value) { if (value !== undefined && value !== null && value !== "") rows.push(el("dt", { text: name }), el("dd", { text: String(value) })); }
    row("rule", f.ruleId); row("lane", f.lane);
    if (Array.isArray(f.tools) && f.tools.length) row("tools", f.tools.join(", "));
    row("fix", f.remediation);
    if (f.factSource || f.provenance) {
      row("host fact", [f.provenance, f.factSource, f.factDate].filter(Boolean).join(" · "));
      row("versions", versions(f));
    }
    var evidence = (Array.isArray(f.evidence) ? f.evidence : []).map(function (e) {
      var where = String(e.source) + (e.line ? ":" + e.line : "");
      return el("li", {}, [el("code", { text: where }), document.createTextNode(e.detail ? " " + clean(e.detail) : ""),
        e.snippet ? el("pre", { text: String(e.snippet) }) : null]);
    });
    return el("article", { className: "finding", "data-lane": String(f.lane) }, [
      el("h4", {}, [el("span", { className: "chip " + sev, text: sev }), document.createTextNode(" " + clean(f.title)),
        fixedByProxy ? el("span", { className: "tag", text: "goes away with " + PROXY + " in front" }) : null]),
      el("p", { text: String(f.detail || "") }),
      el("dl", {}, rows),
      evidence.length ? el("ul", {}, evidence) : null
    ]);
  }

  // the host versions a fact's source bounds it to (none given: every version the source speaks of)
  function versions(f) {
    if (f.factSince && f.factFixedIn) return String(f.factSince) + " up to (not incl.) " + String(f.factFixedIn);
    if (f.factSince) return String(f.factSince) + " and later";
    if (f.factFixedIn) return "before " + String(f.factFixedIn) + " (fixed there)";
    return "no version bound in the source";
  }

  // per widget: the needs it uses, where in its code, and what a run of it under this host was seen to do
  function widgets(server, host) {
    var list = Array.isArray(server.widgets) ? server.widgets : [];
    if (!list.length) return null;
    var observed = (Array.isArray(host.findings) ? host.findings : []).reduce(function (acc, f) {
      (Array.isArray(f.evidence) ? f.evidence : []).forEach(function (e) {
        var src = String(e.source || "");
        if (src.indexOf("observed:") === 0) acc.push({ uri: src.slice(9), rule: String(f.ruleId), detail: String(e.detail || "") });
      });
      return acc;
    }, []);
    var box = el("section", { className: "widgets" }, [el("h3", { text: "Widgets and the needs they use" })]);
    list.forEach(function (w) {
      var uri = String(w.uri);
      var needs = (Array.isArray(w.needs) ? w.needs : []).map(function (n) {
        return el("tr", {}, [
          el("td", {}, [el("code", { text: String(n.need) })]),
          el("td", { text: String(n.detail || "") + (n.guarded ? " (guarded)" : "") }),
          el("td", { className: "num", text: n.line ? String(n.line) : "_meta" }),
          el("td", {}, n.snippet ? [el("code", { text: String(n.snippet) })] : [])
        ]);
      });
      var seen = observed.filter(function (o) { return o.uri === uri; }).map(function (o) {
        return el("li", {}, [el("code", { text: o.rule }), document.createTextNode(" " + clean(o.detail))]);
      });
      var tools = Array.isArray(w.tools) ? w.tools.join(", ") : "";
      box.appendChild(el("article", { className: "finding widget" }, [
        el("h4", {}, [el("code", { text: uri })]),
        el("p", { className: "muted", text: "used by " + (tools || "no tool") }),
        needs.length ? el("table", { className: "needs" }, [
          el("thead", {}, [el("tr", {}, ["need", "as", "line", "code"].map(function (h) { return el("th", { scope: "col", text: h }); }))]),
          el("tbody", {}, needs)]) : el("p", { text: "Its code uses no host capability the scanner knows." }),
        w.moreNeeds > 0 ? el("p", { className: "muted", text: String(w.moreNeeds) + " more use(s) not listed" }) : null,
        el("p", { className: "muted", text: seen.length ? "Observed under this host:" : "Not observed under this host (static evidence only)." }),
        seen.length ? el("ul", {}, seen) : null
      ]));
    });
    return box;
  }

  function renderDiff() {
    var box = $("diff"); clear(box);
    var a = state.reports[state.compare], b = state.reports[state.current];
    box.classList.toggle("hidden", !a || !b || a === b);
    if (!a || !b || a === b) return;
    box.appendChild(el("h2", { text: "Report " + b.name + " compared with " + a.name }));
    var before = {};
    servers(a.doc).forEach(function (s) { hostsOf(s).forEach(function (h) { before[serverName(s) + "\u0000" + h.hostId] = safeVerdict(h.verdict); }); });
    var rows = [];
    servers(b.doc).forEach(function (s) {
      hostsOf(s).forEach(function (h) {
        var old = before[serverName(s) + "\u0000" + h.hostId], now = safeVerdict(h.verdict);
        if (!old || old === now) return;
        var better = RANK[now] < RANK[old];
        rows.push(el("tr", { className: better ? "better" : "worse" }, [el("td", { text: serverName(s) }), el("td", { text: String(h.hostLabel) }),
          el("td", {}, [el("span", { className: "chip " + old, text: old }), document.createTextNode(" → "), el("span", { className: "chip " + now, text: now })]),
          el("td", { className: "change", text: better ? "better" : "worse" })]));
      });
    });
    if (!rows.length) { box.appendChild(el("p", { text: "No verdict changed." })); return; }
    var worse = rows.filter(function (r) { return r.className === "worse"; }).length;
    box.appendChild(el("p", { text: rows.length + " verdict(s) changed: " + worse + " worse, " + (rows.length - worse) + " better." }));
    box.appendChild(el("p", { className: "muted", text: "Verdicts rank works, unknown, degraded, blocked: unknown counts as better than degraded, as nothing is known to break there." }));
    var head = el("tr", {}, ["server", "host", "verdict", "change"].map(function (h) { return el("th", { scope: "col", text: h }); }));
    box.appendChild(el("table", {}, [el("thead", {}, [head]), el("tbody", {}, rows)]));
  }

  // --- start ------------------------------------------------------------------------------------------------------
  api("GET", "/api/hosts").then(function (data) {
    var kinds = {};
    data.hosts.forEach(function (h) { state.hosts[h.id] = h; kinds[h.kind] = true; });
    Object.keys(kinds).sort().forEach(function (k) { $("kind").appendChild(el("option", { value: k, text: k })); });
    var first = params.get("report");
    if (first) return api("GET", "/api/reports/" + encodeURIComponent(first)).then(function (run) {
      if (run.report) addReport(run.id, reportLabel(run.report), run.report);
      if (run.error) status("the check failed: " + run.error, true);
    });
  }).catch(function (error) { status(error.message, true); }).then(function () {
    document.documentElement.setAttribute("data-ready", "true");
  });
})();
