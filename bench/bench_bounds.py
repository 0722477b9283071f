"""Peak memory and time of `hostcompat check` on hostile inputs, side by side with the input size.

Cases (every input is generated here, in a temporary folder):
- a 100 MB snapshot of 20,000 tools with large input schemas (many small JSON objects);
- a 100 MB snapshot of seven distinct 14 MB widgets (long strings, and more widget code than one check analyses);
- a live stdio server whose `tools/list` is one ~31 MB message of 1,000,000 tools;
- a snapshot whose one widget is 16 MB of `window.openai.callTool("x")` calls, checked with `--timeout 5`;
- a snapshot whose one widget is 50 MB of real widget code (the captured widget corpus, `scripts/capture_widgets.py`,
  repeated; generated code without the corpus), beside MCPJam's peak on the same input as quoted in issue 18
  (258 MiB; hostcompat's was 449 MiB).

Each check runs in its own process, which reports its own peak RSS (`VmHWM`: not the server it starts, nor the
bench it was forked from); the bound column is the target, 3x the input plus 100 MB. Every widget here holds more
code than a check scans in a forked child (`cli._scan_ahead.MAX_AHEAD_CHARS`), so each is scanned in that process
and its peak is the whole check's.
Run: `python bench/bench_bounds.py [--only NAME]`.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MB = 1_000_000
RUNNER = (
    "import sys\n"
    "from hostcompat.cli import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "finally:\n"
    "    peak = [line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')]\n"
    "    sys.stderr.write(f'\\nPEAK-RSS-KB {peak[0]}\\n')\n"
    "sys.exit(code)\n"
)
"""Runs `hostcompat` and prints the peak RSS of this process alone: `VmHWM`, the high-water mark of its own memory
(`ru_maxrss` would also count the bench's memory it was forked from; the probed server is a child, not counted)."""

_DIMENSIONS = ("tools", "resources", "resourceTemplates", "prompts", "uiResources")


def _head(tools_and_resources: str) -> str:
    coverage = dict.fromkeys(_DIMENSIONS, "complete")
    return (
        '{"schemaVersion": "hostcompat.snapshot/1", "capturedAt": "2026-01-01T00:00:00Z", '
        '"target": {"kind": "stdio", "command": "bench"}, "client": {}, '
        '"connection": {"era": "handshake", "method": "initialize", "protocolVersion": "2025-11-25"}, '
        '"initialize": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "resources": {}}, '
        '"serverInfo": {"name": "bench", "version": "1"}}, "limits": {}, '
        f'"coverage": {json.dumps(coverage)}, ' + tools_and_resources
    )


def _tool(index: int, widget: str | None = None) -> dict[str, object]:
    properties = {
        f"field_{n}": {"type": "string", "description": f"Field {n} of tool {index}: " + "d" * 60} for n in range(34)
    }
    tool: dict[str, object] = {
        "name": f"tool_{index:06d}",
        "description": "A tool. " * 60,
        "inputSchema": {"type": "object", "properties": properties, "required": ["field_0"]},
    }
    if widget is not None:
        tool["_meta"] = {"ui": {"resourceUri": widget}}
    return tool


def tools_snapshot(path: Path, count: int = 20_000) -> None:
    """A snapshot of `count` tools, about 5 KB each."""
    with path.open("w", encoding="utf-8") as out:
        out.write(_head('"tools": ['))
        for index in range(count):
            out.write(("," if index else "") + json.dumps(_tool(index)))
        out.write('], "uiResources": {}}\n')


def _widget_code(seed: int, size: int) -> Iterator[str]:
    """Distinct, plausible widget code: small functions, a few bridge calls, about `size` characters."""
    written = 0
    line = 0
    while written < size:
        chunk = (
            f"function render_{seed}_{line}(state) {{ const rows = state.items.map((item) => item.id + {line});"
            f' if (rows.length > {line % 97}) {{ app.callServerTool({{ name: "refresh", arguments: {{}} }}); }}'
            f" return rows.join(','); }}\n"
        )
        yield chunk
        written += len(chunk)
        line += 1


def widgets_snapshot(path: Path, widgets: int = 7, size: int = 14 * MB) -> None:
    """A snapshot of `widgets` distinct widgets of `size` characters, one tool each."""
    uris = [f"ui://bench/widget-{n}.html" for n in range(widgets)]
    with path.open("w", encoding="utf-8") as out:
        out.write(_head('"tools": ' + json.dumps([_tool(n, uri) for n, uri in enumerate(uris)]) + ', "uiResources": {'))
        for n, uri in enumerate(uris):
            item = {"uri": uri, "mimeType": "text/html;profile=mcp-app"}
            out.write(("," if n else "") + json.dumps(uri) + ': {"contents": [' + json.dumps(item)[:-1] + ', "text": "')
            out.write('<!DOCTYPE html><html><body><script type=\\"module\\">')
            for chunk in _widget_code(n, size):
                out.write(json.dumps(chunk)[1:-1])
            out.write('</script></body></html>"}], "referencedBy": []}')
        out.write("}}\n")


def call_bomb_snapshot(path: Path, calls: int = 570_000) -> None:
    """One widget of `calls` unguarded `window.openai.callTool("x")` calls (16 MB)."""
    uri = "ui://bench/bomb.html"
    body = 'window.openai.callTool("x");\n' * calls
    html = f"<!DOCTYPE html><html><body><script>{body}</script></body></html>"
    item = {"uri": uri, "mimeType": "text/html;profile=mcp-app", "text": html}
    tool = {"name": "bomb", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": uri}}}
    with path.open("w", encoding="utf-8") as out:
        out.write(_head(f'"tools": [{json.dumps(tool)}], "uiResources": {{{json.dumps(uri)}: '))
        out.write(json.dumps({"contents": [item], "referencedBy": ["tool:bomb"]}) + "}}\n")


def real_code_snapshot(path: Path, size: int = 50 * MB) -> None:
    """One widget whose one script is `size` characters of real widget code: the inline scripts of the corpus's
    widgets one after the other, repeated (generated code when there is no corpus).
    """
    corpus = REPO / "interop" / "corpus"
    scripts = [
        body
        for file in sorted(corpus.glob("*.json"))
        if file.name != "index.json"
        for entry in json.loads(file.read_text(encoding="utf-8")).get("uiResources", {}).values()
        for item in entry.get("contents") or ()
        if isinstance(item.get("text"), str)
        for body in re.findall(r"<script[^>]*>(.*?)</script>", item["text"], flags=re.DOTALL)
        if len(body) > 1000
    ] or ["".join(_widget_code(0, MB))]
    uri = "ui://bench/real.html"
    tool = {"name": "real", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": uri}}}
    item = {"uri": uri, "mimeType": "text/html;profile=mcp-app"}
    with path.open("w", encoding="utf-8") as out:
        out.write(_head(f'"tools": [{json.dumps(tool)}], "uiResources": {{{json.dumps(uri)}: {{"contents": ['))
        out.write(json.dumps(item)[:-1] + ', "text": "')
        out.write(json.dumps('<!DOCTYPE html><html><body><script type="module">')[1:-1])
        written = 0
        while written < size:
            for body in scripts:
                piece = body[: size - written] + ";\n"
                out.write(json.dumps(piece)[1:-1])
                written += len(piece)
                if written >= size:
                    break
        out.write(json.dumps("</script></body></html>")[1:-1])
        out.write('"}], "referencedBy": ["tool:real"]}}}\n')


MCPJAM_50MB_PEAK_MIB = 258
"""MCPJam's peak RSS checking the 50 MB widget, as quoted in issue 18 (its package has no such check to run here)."""


def run_check(argv: list[str]) -> tuple[float, float, int]:
    """(seconds, peak RSS in MB, exit code) of one `hostcompat check` in a fresh process."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, "check", *argv],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    peaks = [line for line in done.stderr.splitlines() if line.startswith("PEAK-RSS-KB ")]
    if not peaks:
        raise SystemExit(f"check {argv} printed no peak: {done.stderr[-2000:]}")
    return seconds, int(peaks[-1].split()[1]) * 1024 / MB, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the case whose name contains this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        million = [sys.executable, "-m", "tests.probe.servers.million_tools"]
        cases: list[tuple[str, Callable[[], tuple[int, list[str]]]]] = []

        def snapshot_case(name: str, build: Callable[[Path], None], *extra: str) -> None:
            def prepare() -> tuple[int, list[str]]:
                path = folder / f"{name}.json"
                build(path)
                return path.stat().st_size, [str(path), "--format", "json", "--fail-on", "never", *extra]

            cases.append((name, prepare))

        snapshot_case("snapshot: 20,000 tools", tools_snapshot)
        snapshot_case("snapshot: 7 x 14 MB widgets", widgets_snapshot)
        cases.append(
            (
                "live: 1,000,000-tool tools/list",
                lambda: (32 * MB, ["--format", "json", "--fail-on", "never", "--", *million]),
            )
        )
        snapshot_case("snapshot: 16 MB call bomb", call_bomb_snapshot, "--timeout", "5")
        snapshot_case("snapshot: one 50 MB widget", real_code_snapshot, "--timeout", "600")
        print(f"{'case':<34} {'input MB':>9} {'peak RSS MB':>12} {'x input':>8} {'bound MB':>9} {'time s':>8}  exit")
        for name, prepare in cases:
            if args.only and args.only not in name:
                continue
            size, argv = prepare()
            seconds, peak, code = run_check(argv)
            bound = 3 * size / MB + 100
            print(
                f"{name:<34} {size / MB:>9.1f} {peak:>12.0f} {peak / (size / MB):>8.1f} {bound:>9.0f} "
                f"{seconds:>8.1f}  {code}"
                + (
                    f"  ({peak / 1.048576:.0f} MiB; MCPJam {MCPJAM_50MB_PEAK_MIB} MiB, quoted in issue 18)"
                    if "50 MB" in name
                    else ""
                ),
                flush=True,
            )


def json_main(argv: list[str]) -> None:
    """`--json FILE`: only the figure `bench/summary.py` reads (issue 18), written to FILE: the peak RSS of one
    check of a snapshot whose one widget is 50 MB of real widget code, and MCPJam's peak as quoted.
    """
    from _figures import Figures, measured, quoted, write_figures  # bench/, the script's folder, is on the path

    parser = argparse.ArgumentParser(description="the peak-memory figure of issue 18, as JSON")
    parser.add_argument("--json", type=Path, required=True)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "real.json"
        real_code_snapshot(path)
        size = path.stat().st_size
        _, peak, code = run_check([str(path), "--format", "json", "--fail-on", "never", "--timeout", "600"])
    corpus = "real widget code" if (REPO / "interop" / "corpus" / "index.json").is_file() else "generated code"
    figures = Figures("bench_bounds")
    note = f"snapshot of {size / MB:.1f} MB, one 50 MB widget of {corpus}; check exit {code}"
    figures.measured["50 MB widget"] = measured("MiB", [peak * MB / 2**20], note)
    figures.quoted["50 MB widget"] = quoted("MiB", MCPJAM_50MB_PEAK_MIB)
    write_figures(args.json, figures)


if __name__ == "__main__":
    if "--json" in sys.argv:
        json_main(sys.argv[1:])
    else:
        main()
