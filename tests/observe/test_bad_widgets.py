"""Hand-made widgets that break the bridge's rules, and hostile ones, run in headless Chromium: the behavioural rules
fire on each, and every hostile widget is stopped within its limits without taking the run down."""

from __future__ import annotations

import socket
import time

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.observe.runner import RunLimits
from hostcompat.observe.session import Observation, observe_snapshot
from hostcompat.probe.snapshot import Snapshot
from tests.observe.support import make_snapshot, require_browser, widget_tool

CATALOG = load_catalog()
pytestmark = pytest.mark.timeout(300)

BRIDGE = """
<script>
let next = 1;
const pending = new Map();
function request(method, params) {
  const id = next++;
  parent.postMessage({jsonrpc: "2.0", id, method, params}, "*");
  return new Promise((resolve, reject) => pending.set(id, {resolve, reject}));
}
window.addEventListener("message", (event) => {
  const m = event.data;
  if (m && m.id !== undefined && pending.has(m.id)) {
    const p = pending.get(m.id); pending.delete(m.id);
    m.error ? p.reject(new Error(m.error.message)) : p.resolve(m.result);
  }
});
async function connect(appCapabilities) {
  await request("ui/initialize", {appInfo: {name: "t", version: "1"}, appCapabilities, protocolVersion: "2026-01-26"});
  parent.postMessage({jsonrpc: "2.0", method: "ui/notifications/initialized"}, "*");
  parent.postMessage({jsonrpc: "2.0", method: "ui/notifications/size-changed", params: {height: 100}}, "*");
}
</script>
"""

BAD = {
    "no-init": "<p>I never speak the bridge</p>",
    "mode": BRIDGE + "<p>mode</p><script>connect({availableDisplayModes: ['inline']}).then(() =>"
    " request('ui/request-display-mode', {mode: 'pip'}));</script>",
    "model-only": BRIDGE
    + "<p>call</p><script>connect({}).then(() => request('tools/call', {name: 'secret'}));</script>",
    "throws": BRIDGE + "<p>throws</p><script>connect({}).then(async () => {"
    " const r = await request('tools/call', {name: 'show-throws'}); r.x.y; });</script>",
    "no-caps": BRIDGE + "<p>no caps</p><script>connect(undefined);</script>",
    "good": BRIDGE + "<p>good</p><script>connect({});</script>",
}

HOSTILE = {
    "loop": BRIDGE + "<p>x</p><script>connect({}).then(() => { while (true) {} });</script>",
    "dom": "<script>for (let i = 0; i < 3e6; i++) document.body.appendChild(document.createElement('div'));</script>",
    "alerts": "<p>a</p><script>for (let i = 0; i < 1000; i++) { try { alert(i); } catch (e) {} }</script>",
    "navigate": "<script>try { top.location = 'https://evil.example/'; } catch (e) {}"
    " setTimeout(() => { location.href = 'https://evil.example/away'; }, 100);</script>",
    "network": "<p>n</p><script>fetch('https://undeclared.example/x').catch(() => {});"
    " new Image().src = 'http://127.0.0.1:9/local'; try { new WebSocket('wss://ws.example/x'); } catch (e) {}</script>",
    "memory": "<script>const keep = []; while (true) keep.push(new Array(1e6).fill(Math.random()));</script>",
    "flood": "<script>setInterval(() => { for (let i = 0; i < 500; i++) parent.postMessage({jsonrpc: '2.0',"
    " method: 'ui/notifications/size-changed', params: {height: i}}, '*'); }, 1);</script>",
    "spoof": "<p>s</p><script>for (const name of ['hcRecord', 'hcServer']) { try { window[name]('in', 0,"
    " JSON.stringify({shape: 'object', jsonrpc: '2.0', json: true, method: 'ui/initialize', id: 1})); } catch (e) {}"
    " try { window[name](JSON.stringify({method: 'tools/call', params: {name: 'secret'}})); } catch (e) {} }</script>",
    "top": "<p>t</p><script>try { top.document.body.innerHTML = 'owned'; }"
    " catch (e) { console.error('top: ' + e.name); }</script>",
}


def _snapshot(pages: dict[str, str]) -> Snapshot:
    tools = [widget_tool(f"show-{key}", f"ui://t/{key}.html") for key in pages]
    tools.append({"name": "secret", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["model"]}}})
    return make_snapshot(tools, {f"ui://t/{key}.html": html for key, html in pages.items()})


def _by_key(observation: Observation, host: str) -> dict[str, ObservedRun]:
    return {run.uri.rsplit("/", 1)[1].removesuffix(".html"): run for run in observation.runs if run.host_id == host}


@pytest.fixture(scope="module")
def bad() -> dict[str, ObservedRun]:
    require_browser()
    limits = RunLimits(settle=1.0, run=8.0, explore=2.0, hard=20.0)
    snapshot = _snapshot(BAD)
    return _by_key(observe_snapshot(snapshot, [CATALOG.get("claude")], limits=limits), "claude")


def _rules(run: ObservedRun) -> set[str]:
    return {issue.rule_id for issue in run.issues}


def test_the_rules_fire_on_hand_made_bad_widgets(bad: dict[str, ObservedRun]) -> None:
    assert _rules(bad["no-init"]) == {"OBS-INIT-001"} and bad["no-init"].status == "no-bridge"
    assert "OBS-MODE-001" in _rules(bad["mode"])
    assert "OBS-VIS-001" in _rules(bad["model-only"])
    assert _rules(bad["no-caps"]) == {"OBS-INIT-003"}
    assert _rules(bad["good"]) == set() and bad["good"].status == "rendered"


def test_an_error_after_a_result_is_not_a_refusal_but_after_a_refusal_it_is() -> None:
    require_browser()
    limits = RunLimits(settle=1.0, run=8.0, explore=0.0, hard=20.0)
    snapshot = _snapshot({"throws": BAD["throws"]})
    observation = observe_snapshot(
        snapshot, [CATALOG.get("claude"), CATALOG.get("goose")], limits=limits, explore=False
    )
    assert "OBS-REFUSE-001" not in _rules(_by_key(observation, "claude")["throws"])
    goose = _by_key(observation, "goose")["throws"]
    assert "OBS-REFUSE-001" in _rules(goose) and goose.refused == ("serverTools",)


def test_hostile_widgets_end_within_their_limits() -> None:
    require_browser()
    limits = RunLimits(settle=1.0, run=6.0, explore=1.0, hard=15.0, max_messages=500)
    started = time.monotonic()
    observation = observe_snapshot(_snapshot(HOSTILE), [CATALOG.get("claude")], limits=limits, concurrency=2)
    elapsed = time.monotonic() - started
    runs = _by_key(observation, "claude")
    assert set(runs) == set(HOSTILE)
    for key, run in runs.items():
        assert run.seconds <= limits.hard + 10.0, (key, run.seconds)  # teardown of a hung renderer is bounded too
    assert elapsed < len(HOSTILE) * (limits.hard + 10.0) / 2 + 30.0
    assert runs["loop"].status == "timeout" and "OBS-HOSTILE-001" in _rules(runs["loop"]), runs["loop"]
    # the renderer dies at V8's heap limit, or, on a busy machine, the run's limit comes first: either way it ended
    assert runs["memory"].status in ("crashed", "timeout"), runs["memory"]
    assert "OBS-HOSTILE-001" in _rules(runs["memory"])
    assert runs["dom"].status in ("blank", "timeout", "crashed")
    assert runs["flood"].status == "flooded" and "OBS-HOSTILE-001" in _rules(runs["flood"]), runs["flood"]
    assert "OBS-NET-001" in _rules(runs["network"])
    net = next(issue.detail for issue in runs["network"].issues if issue.rule_id == "OBS-NET-001")
    assert "https://undeclared.example" in net and "127.0.0.1:9" in net
    assert "OBS-NET-001" in _rules(runs["navigate"]) and "evil.example" in str(runs["navigate"].issues)
    records = {uri.rsplit("/", 1)[1].removesuffix(".html"): record for uri, _, record in observation.records}
    assert runs["spoof"].methods == () and "OBS-INIT-001" in _rules(runs["spoof"])  # its binding calls are refused
    assert records["alerts"].dialogs == []  # no allow-modals: the sandbox swallows them, nothing reaches the host
    assert records["top"].failure is None and any("top: SecurityError" in text for _, text in records["top"].console)


def test_a_replayed_quirk_strips_structured_content_from_the_result_the_view_gets() -> None:
    require_browser()
    import dataclasses

    from hostcompat.engine.catalog.model import QuirkRef

    quirk = QuirkRef("claude-desktop-tool-result-strips-structured", "t", "observed", "ext-apps #696", "2026-07-30")
    claude = dataclasses.replace(CATALOG.get("claude"), quirks=(quirk,))
    tool = widget_tool("show-good", "ui://t/good.html", outputSchema={"type": "object", "properties": {"n": {}}})
    snapshot = make_snapshot([tool], {"ui://t/good.html": BAD["good"]})
    limits = RunLimits(settle=1.0, run=8.0, hard=20.0)
    observation = observe_snapshot(snapshot, [claude, CATALOG.get("mistral")], limits=limits, explore=False)
    results = {
        host: [m for m in record.messages if m.method == "ui/notifications/tool-result"]
        for _, host, record in observation.records
    }
    assert "structuredContent" not in str(results["claude"][0].params())
    assert "structuredContent" in str(results["mistral"][0].params())


def test_webrtc_and_a_head_in_a_comment_do_not_get_past_the_network_guard() -> None:
    """WebRTC's UDP goes round any proxy, and a CSP placed after a `<head>` found in a comment would be inert."""
    require_browser()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener, socket.socket() as local:
        listener.bind(("127.0.0.1", 0))
        listener.settimeout(0.5)
        local.bind(("127.0.0.1", 0))
        local.listen()
        local.settimeout(0.5)
        udp, tcp = listener.getsockname()[1], local.getsockname()[1]
        pages = {
            "rtc": "<p>r</p><script>const pc = new RTCPeerConnection("
            f"{{iceServers: [{{urls: 'stun:127.0.0.1:{udp}'}}]}});"
            " pc.createDataChannel('d'); pc.createOffer().then((o) => pc.setLocalDescription(o));</script>",
            "comment": f"<!-- <head> --><p>c</p><img src='http://127.0.0.1:{tcp}/x'>"
            f"<script>fetch('http://127.0.0.1:{tcp}/y').catch(() => {{}});</script>",
        }
        limits = RunLimits(settle=1.0, run=4.0, explore=0.0, hard=15.0)
        observation = observe_snapshot(_snapshot(pages), [CATALOG.get("claude")], limits=limits, explore=False)
        with pytest.raises(TimeoutError):
            print(listener.recvfrom(2048))  # no STUN packet reached the loopback listener
        with pytest.raises(TimeoutError):
            local.accept()  # nor any connection to the local service
    records = {uri.rsplit("/", 1)[1].removesuffix(".html"): record for uri, _, record in observation.records}
    assert records["comment"].csp_violations  # the policy applied: the page's own requests broke it, and it said so


def test_array_buffers_past_the_process_memory_bound_are_refused() -> None:
    """The JavaScript heap limit leaves out array buffers: without the process bound, 4 GiB of them were allocated."""
    require_browser()
    page = (
        "<p>m</p><script>const keep = []; try { for (let i = 0; i < 4; i++) {"
        " const a = new Uint8Array(1024 * 1024 * 1024); a.fill(1); keep.push(a); console.log('GiB ' + (i + 1)); } }"
        " catch (e) { console.error('refused: ' + e.name); }</script>"
    )
    limits = RunLimits(settle=1.0, run=6.0, explore=0.0, hard=20.0)
    observation = observe_snapshot(_snapshot({"buffers": page}), [CATALOG.get("claude")], limits=limits, explore=False)
    ((_, _, record),) = observation.records
    said = [text for _, text in record.console]
    assert "GiB 2" not in said and "refused: RangeError" in said, said
