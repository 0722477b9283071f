"""A report as one self-contained HTML file: a servers-by-hosts matrix of verdicts, then each finding and its evidence.

Everything in the document came from a server and is untrusted: every string is escaped (control characters removed),
anchors use our own indices, never a server's names, and a Content-Security-Policy admits no script but the page's
own (by hash), no network request and no form. The file works offline and can be attached to a pull request.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from hostcompat.report.document import VERDICTS
from hostcompat.report.grouping import group_findings, other_events
from hostcompat.terminal import is_unsafe
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.report.model import HostEntry, ReportDocument, ServerEntry

_SEVERITIES: Final = ("blocker", "degraded", "info")

_STYLE: Final = """
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;
--works:#1a7f37;--degraded:#9a6700;--blocked:#cf222e;--unknown:#59636e;--info:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--card:#151b23;
--works:#238636;--degraded:#9e6a03;--blocked:#da3633;--unknown:#6e7681;--info:#1f6feb}}
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);
color:var(--fg)}header,main{max-width:1400px;margin:0 auto;padding:16px 24px}h1{font-size:22px;margin:0 0 4px}
h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
.muted{color:var(--muted)}.filters{display:flex;gap:16px;flex-wrap:wrap;align-items:center;margin-top:12px}
.filters label{display:inline-flex;gap:4px;align-items:center}
.matrix{overflow-x:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{padding:6px 8px;border-bottom:1px solid var(--line);text-align:left;
vertical-align:top}thead tr{background:var(--card)}thead th{font-weight:600;white-space:nowrap}
.matrix table{width:auto}.matrix th,.matrix td{padding:4px 3px;text-align:center}
.matrix tbody th{text-align:left;padding:4px 8px;max-width:240px;overflow:hidden;text-overflow:ellipsis}
.matrix thead th{vertical-align:bottom}.matrix th.host{writing-mode:vertical-rl;transform:rotate(180deg);
font-weight:500;font-size:12px;padding:8px 2px}
.chip{display:inline-block;min-width:1.6em;padding:1px 6px;border-radius:10px;font-size:12px;font-weight:600;
text-align:center;text-decoration:none;color:#fff;background:var(--unknown)}
.chip.works{background:var(--works)}.chip.degraded{background:var(--degraded)}.chip.blocked{background:var(--blocked)}
.chip.info{background:var(--info)}.chip.blocker{background:var(--blocked)}.unchecked{color:var(--blocked)}
a.chip:focus{outline:2px solid var(--fg);outline-offset:1px}
details.host{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:var(--card)}
details.host>summary{cursor:pointer;padding:8px 12px}details.host[open]>summary{border-bottom:1px solid var(--line)}
.finding{padding:8px 12px;border-top:1px solid var(--line)}.finding:first-of-type{border-top:0}
.finding h4{margin:0;font-size:14px}.finding p{margin:4px 0}.finding dl{display:grid;grid-template-columns:max-content
1fr;gap:2px 12px;margin:6px 0}.finding dt{color:var(--muted)}.finding dd{margin:0;overflow-wrap:anywhere}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
tbody th{white-space:nowrap;font-weight:500}.hidden,.off{display:none}.events li{color:var(--degraded)}
.widget{border:1px solid var(--line);border-radius:6px;background:var(--card);margin:6px 0}
table.needs{margin:6px 0}table.needs th,table.needs td{padding:2px 8px;position:static}table.needs thead th{
background:none;color:var(--muted);font-weight:500}td.num{text-align:right;font-variant-numeric:tabular-nums}
.proxy{color:var(--works)}
"""

_SCRIPT: Final = """
(function(){
  var boxes=document.querySelectorAll('input[data-verdict]');
  var lane=document.getElementById('lane');
  function apply(){
    var show={};boxes.forEach(function(b){show[b.dataset.verdict]=b.checked;});
    document.querySelectorAll('[data-verdict-of]').forEach(function(el){
      el.classList.toggle('hidden',!show[el.dataset.verdictOf]);});
    document.querySelectorAll('.finding[data-lane]').forEach(function(el){
      el.classList.toggle('hidden',lane.value!=='all'&&el.dataset.lane!==lane.value);});
    document.querySelectorAll('[data-kind]').forEach(function(el){
      el.classList.toggle('off',kind.value!=='all'&&el.dataset.kind!==kind.value);});
  }
  var kind=document.getElementById('kind');var sort=document.getElementById('sort');
  function order(){
    var body=document.querySelector('.matrix tbody');var rows=[].slice.call(body.rows);
    rows.sort(function(a,b){
      if(sort.value==='name'){return a.dataset.name.localeCompare(b.dataset.name);}
      var d=sort.value==='worst'?b.dataset.worst-a.dataset.worst:a.dataset.worst-b.dataset.worst;
      return sort.value==='checked'?a.dataset.order-b.dataset.order:(d||a.dataset.order-b.dataset.order);});
    rows.forEach(function(r){body.appendChild(r);});
  }
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  lane.addEventListener('change',apply);kind.addEventListener('change',apply);sort.addEventListener('change',order);
  document.querySelectorAll('a.chip[href^="#"]').forEach(function(a){
    a.addEventListener('click',function(){var d=document.getElementById(a.getAttribute('href').slice(1));
      if(d){d.open=true;}});});
  apply();
})();
"""


def _script_hash() -> str:
    digest = hashlib.sha256(_SCRIPT.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; "
    f"script-src '{_script_hash()}'; img-src data:; base-uri 'none'; form-action 'none'"
)
"""The report's policy: its own script (by hash) and inline styles, nothing else: no network, no injected code."""


def _text(value: object) -> str:
    """`value` as escaped HTML text, control and bidi-override characters (`hostcompat.terminal.is_unsafe`) dropped."""
    cleaned = "".join(ch for ch in str(value) if not is_unsafe(ch) or ch in "\n\t")
    return html.escape(cleaned, quote=True)


def render_html(document: ReportDocument, *, title: str = "hostcompat report") -> str:
    """The whole report as one HTML document (UTF-8 text)."""
    servers = [server for server in _items(document.get("servers")) if isinstance(server, Mapping)]
    hosts = _host_columns(servers)
    kinds = sorted({kind for _, _, kind in hosts if kind})
    tool = _obj(document.get("tool"))
    parts = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_text(title)}</title><style>{_STYLE}</style></head><body>",
        f"<header><h1>{_text(title)}</h1>",
        f'<p class="muted">{len(servers)} server(s) &times; {len(hosts)} host(s) &middot; '
        f"{_text(tool.get('name', 'hostcompat'))} {_text(tool.get('version', ''))} &middot; "
        f"{_text(document.get('schema', ''))}</p>",
        _filters(kinds),
        "</header><main>",
        _matrix(servers, hosts, kinds),
    ]
    for index, server in enumerate(servers):
        parts.append(_server_section(index, server, hosts, kinds))
    parts.append(f"</main><script>{_SCRIPT}</script></body></html>\n")
    return "".join(parts)


def _obj(value: object) -> WireJSON:
    """`value` when it is an object, else an empty one: a saved report is rendered whatever its shape."""
    return value if isinstance(value, Mapping) else {}


def _items(value: object) -> list[Any]:
    """`value` when it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def _hosts(server: WireJSON) -> list[WireJSON]:
    return [host for host in _items(server.get("hosts")) if isinstance(host, Mapping)]


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _host_columns(servers: Sequence[WireJSON]) -> list[tuple[str, str, str]]:
    """(host id, label, kind or "") of every host any server was judged on, in first-seen order."""
    seen: dict[str, tuple[str, str, str]] = {}
    for server in servers:
        for host in _hosts(server):
            host_id = str(host.get("hostId"))
            kind = host.get("hostKind")
            seen.setdefault(
                host_id, (host_id, str(host.get("hostLabel") or host_id), kind if isinstance(kind, str) else "")
            )
    return list(seen.values())


def _kind_key(kind: str, kinds: Sequence[str]) -> str:
    """Our own name for a host kind in the page (`k0`, `k1` …; a report's strings never become attributes)."""
    return f"k{kinds.index(kind)}" if kind in kinds else "k-"


def _filters(kinds: Sequence[str]) -> str:
    boxes = "".join(
        f'<label><input type="checkbox" data-verdict="{verdict}" checked> '
        f'<span class="chip {verdict}">{verdict}</span></label>'
        for verdict in reversed(VERDICTS)
    )
    lanes = (
        '<option value="all">all lanes</option><option value="apps">apps</option><option value="server">server</option>'
    )
    kind_options = "".join(f'<option value="{_kind_key(kind, kinds)}">{_text(kind)}</option>' for kind in kinds)
    sorts = (
        '<option value="checked">as checked</option><option value="name">by name</option>'
        '<option value="worst">worst first</option><option value="best">best first</option>'
    )
    return (
        f'<div class="filters" role="group" aria-label="filters"><span>Show hosts:</span>{boxes}'
        f'<label>Host kind: <select id="kind"><option value="all">all</option>{kind_options}</select></label>'
        f'<label>Findings: <select id="lane">{lanes}</select></label>'
        f'<label>Sort servers: <select id="sort">{sorts}</select></label></div>'
    )


def _server_name(server: WireJSON) -> str:
    info = _obj(server.get("server"))
    target = _obj(server.get("target"))
    return str(info.get("name") or target.get("display") or "server")


def _matrix(servers: Sequence[WireJSON], hosts: Sequence[tuple[str, str, str]], kinds: Sequence[str]) -> str:
    head = "".join(
        f'<th class="host" scope="col" data-kind="{_kind_key(kind, kinds)}">{_text(label)}</th>'
        for _, label, kind in hosts
    )
    rows = []
    for index, server in enumerate(servers):
        verdicts = {str(host.get("hostId")): host for host in _hosts(server)}
        cells = []
        for column, (host_id, label, kind) in enumerate(hosts):
            host = verdicts.get(host_id)
            key = _kind_key(kind, kinds)
            if host is None:
                cells.append(f'<td class="muted" data-kind="{key}">&ndash;</td>')
                continue
            verdict = _verdict(host)
            better = _proxied(host)
            said = f"{verdict}; {better} with hostcompat proxy in front" if better else verdict
            cells.append(
                f'<td data-kind="{key}"><a class="chip {verdict}" href="#s{index}-h{column}" '
                f'data-verdict-of="{verdict}" title="{_text(label)}: {said}">{verdict[0].upper()}</a></td>'
            )
        name = f'<a href="#s{index}">{_text(_server_name(server))}</a>'
        worst = max((VERDICTS.index(_verdict(host)) for host in _hosts(server)), default=len(VERDICTS))
        rows.append(
            f'<tr data-order="{index}" data-worst="{worst}" data-name="{_text(_server_name(server))}">'
            f'<th scope="row" title="{_text(_server_name(server))}">{name}</th>{"".join(cells)}</tr>'
        )
    return (
        f'<section class="matrix" aria-label="verdict matrix"><table><thead><tr><th scope="col">server</th>{head}'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></section>"
    )


def _verdict(host: WireJSON) -> str:
    verdict = str(host.get("verdict"))
    return verdict if verdict in VERDICTS else "unknown"


def _proxied(host: WireJSON) -> str | None:
    """The host's verdict with hostcompat's client rules in front (`withProxy`), when they make it better."""
    proxy = _obj(host.get("withProxy"))
    verdict = str(proxy.get("verdict"))
    if verdict not in VERDICTS or VERDICTS.index(verdict) >= VERDICTS.index(_verdict(host)):
        return None
    return verdict


def _server_section(index: int, server: WireJSON, hosts: Sequence[tuple[str, str, str]], kinds: Sequence[str]) -> str:
    info = _obj(server.get("server"))
    target = _obj(server.get("target"))
    columns = {host_id: column for column, (host_id, _, _) in enumerate(hosts)}
    kind_of = {host_id: _kind_key(kind, kinds) for host_id, _, kind in hosts}
    summary = _obj(server.get("summary"))
    counts = " &middot; ".join(f'<span class="chip {v}">{_count(summary.get(v))}</span> {v}' for v in VERDICTS)
    groups = group_findings(cast("list[HostEntry]", _hosts(server)))
    counts += f' <span class="muted">&middot; {len(groups)} distinct finding(s) across hosts</span>' if groups else ""
    parts = [
        f'<section id="s{index}"><h2>{_text(_server_name(server))}'
        f"{' ' + _text(info['version']) if info.get('version') else ''}</h2>",
        f'<p class="muted"><code>{_text(target.get("display", ""))}</code></p><p>{counts}</p>',
    ]
    if server.get("error"):
        parts.append(f'<p class="unchecked"><strong>Could not be checked:</strong> {_text(server["error"])}</p>')
    events = other_events(cast("ServerEntry", server))
    if events:
        items = "".join(
            f"<li><code>{_text(event.get('code', ''))}</code> {_text(event.get('message', ''))}</li>"
            for event in events
        )
        parts.append(f'<ul class="events">{items}</ul>')
    for host in _hosts(server):
        column = columns.get(str(host.get("hostId")), 0)
        parts.append(_host_block(index, column, host, kind_of.get(str(host.get("hostId")), "k-")))
    hygiene = [finding for finding in _items(server.get("hygiene")) if isinstance(finding, Mapping)]
    if hygiene:
        parts.append('<h3>Server hygiene</h3><div class="host">')
        parts.extend(_finding(finding) for finding in hygiene)
        parts.append("</div>")
    parts.append(_widgets(server))
    parts.append("</section>")
    return "".join(parts)


def _host_block(index: int, column: int, host: WireJSON, kind: str) -> str:
    verdict = _verdict(host)
    findings = [finding for finding in _items(host.get("findings")) if isinstance(finding, Mapping)]
    lanes = _obj(host.get("lanes"))
    reasons = [reason for lane in lanes.values() if isinstance(lane, Mapping) for reason in _items(lane.get("unknown"))]
    why = "".join(f"<p class='finding muted'>unknown: {_text(reason)}</p>" for reason in reasons)
    better = _proxied(host)
    if better is not None:
        proxy = _obj(host.get("withProxy"))
        rules = ", ".join(f"<code>{_text(rule)}</code>" for rule in _items(proxy.get("rules")))
        fixed = ", ".join(f"<code>{_text(rule)}</code>" for rule in _items(proxy.get("fixed")))
        why += (
            f'<p class="finding proxy">With <code>hostcompat proxy</code> in front: <span class="chip {better}">'
            f"{better}</span> (client rules {rules or 'for ' + _text(proxy.get('client', 'this host'))}"
            f"{'; ' + fixed + ' go away' if fixed else ''}).</p>"
        )
    body = "".join(_finding(finding) for finding in findings) or "<p class='finding muted'>No findings.</p>"
    return (
        f'<details class="host" id="s{index}-h{column}" data-verdict-of="{verdict}" data-kind="{kind}"><summary>'
        f'<span class="chip {verdict}">{verdict}</span> {_text(host.get("hostLabel") or host.get("hostId"))} '
        f'<span class="muted">&middot; {len(findings)} finding(s)</span>'
        f"{f' <span class=proxy>&middot; {better} with hostcompat proxy in front</span>' if better else ''}"
        f"</summary>{why}{body}</details>"
    )


def _finding(finding: WireJSON) -> str:
    severity = str(finding.get("severity"))
    severity = severity if severity in _SEVERITIES else "info"
    rows: list[tuple[str, str]] = []
    tools = _items(finding.get("tools"))
    if tools:
        rows.append(("tools", ", ".join(f"<code>{_text(tool)}</code>" for tool in tools)))
    if finding.get("remediation"):
        rows.append(("fix", _text(finding["remediation"])))
    for item in _items(finding.get("evidence"))[:20]:
        if not isinstance(item, Mapping):
            continue
        where = f"<code>{_text(item.get('source', ''))}</code>"
        line = f" line {int(item['line'])}" if isinstance(item.get("line"), int) else ""
        detail = f" {_text(item['detail'])}" if item.get("detail") else ""
        snippet = f" <code>{_text(item['snippet'])}</code>" if item.get("snippet") else ""
        rows.append(("evidence", f"{where}{line}{detail}{snippet}"))
    if finding.get("factSource"):
        rows.append(
            (
                "host fact",
                f"{_text(finding.get('provenance') or 'unknown')}, {_text(finding['factSource'])}"
                f" ({_text(finding.get('factDate') or 'undated')})",
            )
        )
        rows.append(("versions", _versions(finding)))
    table = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in rows)
    return (
        f'<article class="finding" data-lane="{_text(finding.get("lane", "server"))}">'
        f'<h4><span class="chip {severity}">{severity}</span> <code>{_text(finding.get("ruleId", ""))}</code> '
        f"{_text(finding.get('title', ''))}</h4><p>{_text(finding.get('detail', ''))}</p><dl>{table}</dl></article>"
    )


def _versions(finding: WireJSON) -> str:
    """The host versions a fact's source bounds it to, as the page says them."""
    since, fixed = finding.get("factSince"), finding.get("factFixedIn")
    if since and fixed:
        return f"{_text(since)} up to (not incl.) {_text(fixed)}"
    if since:
        return f"{_text(since)} and later"
    if fixed:
        return f"before {_text(fixed)} (fixed there)"
    return "no version bound in the source"


def _widgets(server: WireJSON) -> str:
    """Per scanned widget: the needs it uses with line and snippet, and what runs of it were observed to do."""
    widgets = [widget for widget in _items(server.get("widgets")) if isinstance(widget, Mapping)]
    if not widgets:
        return ""
    parts = ["<h3>Widgets and the needs they use</h3>"]
    for widget in widgets:
        uri = str(widget.get("uri", ""))
        rows = "".join(
            f"<tr><td><code>{_text(need.get('need', ''))}</code></td><td>{_text(need.get('detail', ''))}"
            f"{' (guarded)' if need.get('guarded') is True else ''}</td>"
            f'<td class="num">{int(need["line"]) if isinstance(need.get("line"), int) else "_meta"}</td>'
            f"<td><code>{_text(need.get('snippet', ''))}</code></td></tr>"
            for need in _items(widget.get("needs"))
            if isinstance(need, Mapping)
        )
        table = (
            '<table class="needs"><thead><tr><th>need</th><th>as</th><th>line</th><th>code</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            if rows
            else "<p>Its code uses no host capability the scanner knows.</p>"
        )
        more = _count(widget.get("moreNeeds"))
        more_text = f'<p class="muted">{more} more use(s) not listed</p>' if more else ""
        observed = [
            f"<li>{_text(host.get('hostLabel') or host.get('hostId'))}: <code>{_text(finding.get('ruleId', ''))}</code>"
            f" {_text(item.get('detail', ''))}</li>"
            for host in _hosts(server)
            for finding in _items(host.get("findings"))
            if isinstance(finding, Mapping)
            for item in _items(finding.get("evidence"))
            if isinstance(item, Mapping) and item.get("source") == f"observed:{uri}"
        ]
        seen = (
            f"<p class='muted'>Observed:</p><ul>{''.join(observed[:40])}</ul>"
            if observed
            else ("<p class='muted'>Not observed in a browser (static evidence only).</p>")
        )
        tools = ", ".join(f"<code>{_text(tool)}</code>" for tool in _items(widget.get("tools")))
        parts.append(
            f'<article class="finding widget"><h4><code>{_text(uri)}</code></h4>'
            f'<p class="muted">used by {tools or "no tool"}</p>{table}'
            f"{more_text}{seen}</article>"
        )
    return "".join(parts)


__all__ = ["CSP", "render_html"]
