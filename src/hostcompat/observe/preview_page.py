"""The test host page for a person: the same host side of the bridge the observed runs use, with the message log
beside the widget, what the emulation replays or assumes, and a switch to another host or widget. Pure.

In a person's browser there are no runner bindings: the page's own `hcRecord` appends to the log (as text, never
markup) and `hcServer` posts the view's forwarded requests to the preview server with its token. The widget stays
in the sandboxed srcdoc frame without allow-same-origin, so it can reach neither the page nor the token.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hostcompat.observe.host_profile import EmulatedHost
from hostcompat.observe.runner import RunLimits, host_page, page_config
from hostcompat.observe.widget import WidgetJob
from hostcompat.wire_json import WireObject

SERVER_PATH: Final = "/api/server"
"""Where the page posts the view's tools/call and resources/read (with the token header)."""

_MARK: Final = '<script id="hc-config"'

_SHELL: Final = """<style>
body { font: 13px system-ui, sans-serif; margin: 0; padding: 8px 0 0 8px; }
#hc-bar { margin-bottom: 8px; } #hc-bar select { margin-right: 12px; }
#hc-notes { color: #444; max-width: 720px; margin: 0 0 8px 0; padding-left: 18px; }
body > iframe { outline: 1px solid #ccc; }
#hc-log { position: fixed; top: 0; right: 0; width: calc(100% - 750px); min-width: 280px; height: 100%;
  overflow: auto; margin: 0; padding: 8px; box-sizing: border-box; background: #f7f7f7; border-left: 1px solid #ccc;
  font: 12px ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
#hc-log .in { color: #064; } #hc-log .out { color: #036; } #hc-log .err { color: #a00; }
</style>
<div id="hc-bar"><label>Host <select id="hc-host"></select></label><label>Widget <select id="hc-widget"></select>
</label><span id="hc-title"></span></div>
<ul id="hc-notes"></ul>
<pre id="hc-log" aria-label="bridge messages"></pre>
<script>
// The preview's stand-ins for the runner's bindings, and the host and widget switches.
(() => {
  "use strict";
  const cfg = JSON.parse(document.getElementById("hc-config").textContent).preview;
  const log = document.getElementById("hc-log");
  const line = (cls, text) => {
    const row = document.createElement("div");
    row.className = cls;
    row.textContent = text;
    log.appendChild(row);
    if (log.childElementCount > 2000) log.removeChild(log.firstChild);
  };
  window.hcRecord = (kind, at, text) => {
    let message = null;
    try { message = JSON.parse(text); } catch (e) { /* cut */ }
    const arrow = kind === "in" ? "view → host" : kind === "out" ? "host → view" : kind;
    const answer = message && message.id !== undefined ? "answer " + message.id : "";
    const what = message && message.method ? message.method : answer;
    const body = message ? (message.error || message.params || message.result || "") : String(text);
    const cls = message && message.error ? "err" : kind === "in" ? "in" : "out";
    line(cls, `${at} ms  ${arrow}  ${what}  ${String(body).slice(0, 600)}`);
  };
  window.hcServer = async (text) => {
    const response = await fetch(cfg.serverPath, {
      method: "POST", headers: { "content-type": "application/json", "x-hostcompat-token": cfg.token }, body: text,
    });
    if (response.ok) return await response.text();
    return JSON.stringify({ error: { code: -32603, message: "preview server: " + response.status } });
  };
  const fill = (id, items, chosen, key) => {
    const select = document.getElementById(id);
    for (const item of items) {
      const option = document.createElement("option");
      option.value = item.value; option.textContent = item.label; option.selected = item.value === chosen;
      select.appendChild(option);
    }
    select.addEventListener("change", () => {
      const query = new URLSearchParams({ token: cfg.token, host: cfg.host, widget: cfg.widget });
      query.set(key, select.value);
      location.search = query.toString();
    });
  };
  fill("hc-host", cfg.hosts, cfg.host, "host");
  fill("hc-widget", cfg.widgets, cfg.widget, "widget");
  const notes = document.getElementById("hc-notes");
  for (const note of cfg.notes) {
    const item = document.createElement("li");
    item.textContent = note;
    notes.appendChild(item);
  }
})();
</script>
"""


def emulation_notes(host: EmulatedHost) -> list[str]:
    """What the emulation of `host` replays, refuses for want of a catalog fact, and assumes, in words."""
    notes = [f"{host.label} as the catalog describes it" + (f", version {host.version}" if host.version else "")]
    notes.extend(f"Replays {quirk}: {host.sources.get(quirk, 'catalog')}" for quirk in host.replayed)
    if host.unknown:
        notes.append(f"Not in the catalog, refused: {', '.join(host.unknown)}")
    if host.assumed:
        notes.append(f"Not in the catalog, assumed: {', '.join(host.assumed)}")
    return notes


def preview_page(
    job: WidgetJob,
    host: EmulatedHost,
    *,
    token: str,
    hosts: Sequence[tuple[str, str]],
    widgets: Sequence[str],
    limits: RunLimits | None = None,
) -> str:
    """The page showing `job` under `host`, its log beside it; `hosts` are (id, label) to switch to, `widgets` URIs."""
    config: WireObject = page_config(job, host, limits or RunLimits(), {})
    config["preview"] = {
        "token": token,
        "serverPath": SERVER_PATH,
        "host": host.host_id,
        "widget": job.uri,
        "hosts": [{"value": host_id, "label": label} for host_id, label in hosts],
        "widgets": [{"value": uri, "label": uri} for uri in widgets],
        "notes": emulation_notes(host),
    }
    page = host_page(config)
    end = page.index("</script>", page.index(_MARK)) + len("</script>")  # the shell reads the config, then the host
    page = page[:end] + "\n" + _SHELL + page[end:]
    return page.replace(
        "<title>hostcompat test host</title>", f"<title>hostcompat preview: {_text(host.label)}</title>", 1
    )


def _text(value: str) -> str:
    return "".join(ch for ch in value if ch.isprintable()).replace("&", "&amp;").replace("<", "&lt;")[:200]


__all__ = ["SERVER_PATH", "emulation_notes", "preview_page"]
