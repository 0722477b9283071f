"""Start-up cost of the CLI, side by side in one run: `python -c pass`, `python -c "import mcp"`,
`hostcompat --version`, `hostcompat check <snapshot>` (offline: no SDK import) and `hostcompat check` of the pdf
example's snapshot (from the captured widget corpus, `scripts/capture_widgets.py`), beside MCPJam's same check as
quoted in issue 18 (221 ms; the target is at most half of it).

Each command runs `--runs` times, interleaved round-robin so machine noise hits them alike; the table shows the
median and minimum wall time and the ratios to `import mcp`.

Run: `python bench/bench_startup.py [--runs 15] [--snapshot FILE] [--bytecode]` (without `--snapshot`, a snapshot of
the built-in example server is captured first).

`--start CHECKOUT` (with `--json`) also times, in the same turns, the pdf check by a checkout of the commit issue 18
was filed against (3cbc869, its `src/` on `PYTHONPATH`): the issue quotes that hostcompat at 474 ms beside MCPJam's
221, so its time here scales MCPJam's figure to this machine (`mcpjam scaled`: 221 / 474 of it).

`--live` times a live check instead: `hostcompat check -- node <server-basic-react>` (the ext-apps example from
`interop/node_modules`, over stdio) against `bench/raw_client.py`, a client with no SDK making the same exchange
(the floor), interleaved; it prints medians, min-max and the ratio to the floor (target: at most 1.3x).

With `PYTHONDONTWRITEBYTECODE` set, an editable install of hostcompat compiles its sources on every run, while `mcp`
(installed from a wheel) loads byte code: the table says so. `--bytecode` runs every command with byte code allowed,
cached in a temporary `PYTHONPYCACHEPREFIX` (nothing is written into the source tree), as an installed wheel runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASIC_REACT = REPO / "interop" / "node_modules" / "@modelcontextprotocol" / "server-basic-react" / "dist" / "index.js"
LIVE_TARGET = 1.3


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    """Wall seconds of one run (output discarded); a failing command aborts the benchmark."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True, env=env)
    return time.perf_counter() - start


def bytecode_env(folder: Path) -> dict[str, str]:
    """The environment with byte code written and read, under `folder` rather than next to the sources."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def example_snapshot(folder: Path) -> Path:
    """Capture the built-in example server once, for the offline check."""
    path = folder / "board.snapshot.json"
    subprocess.run(
        [sys.executable, "-m", "hostcompat", "snapshot", "--demo", "-o", str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return path


MCPJAM_PDF_CHECK_MS = 221.0
"""MCPJam's offline check of the pdf example's snapshot, as quoted in issue 18 (measured there side by side)."""
START_PDF_CHECK_MS = 474.0
"""hostcompat's same check at the commit issue 18 was filed against (3cbc869), as quoted beside MCPJam's there."""


def pdf_snapshot(folder: Path) -> Path | None:
    """The pdf example server's corpus entry written as a snapshot file; None without the corpus."""
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))  # testkit: the corpus helpers shared with the tests
    from hostcompat.probe.snapshot import write_snapshot
    from testkit.snapshots import corpus_path, corpus_snapshot

    if not corpus_path("server-pdf").is_file():
        return None
    return write_snapshot(corpus_snapshot("server-pdf"), folder / "pdf.snapshot.json")


def interleaved(
    commands: dict[str, list[str]],
    runs: int,
    env: dict[str, str] | None,
    extra_env: dict[str, dict[str, str]] | None = None,
) -> dict[str, list[float]]:
    """Each command's wall times, `runs` rounds taking turns (after one warm-up run each); `extra_env` adds variables
    for some commands.
    """
    envs = dict.fromkeys(commands, env)
    for name, extra in (extra_env or {}).items():
        envs[name] = {**(os.environ if env is None else env), **extra}
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for name, command in commands.items():
        timed(command, envs[name])  # warm the file cache (and, with --bytecode, the byte code cache)
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(timed(command, envs[name]))
    return samples


def code_note(bytecode: bool) -> str:
    if bytecode:
        return "byte code allowed (temporary cache)"
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return "PYTHONDONTWRITEBYTECODE set: an editable hostcompat compiles its sources on every run"
    return "byte code allowed"


def live(runs: int, bytecode: bool) -> None:
    """A live check of server-basic-react over stdio beside the raw client's same exchange."""
    if shutil.which("node") is None or not BASIC_REACT.is_file():
        sys.exit(f"--live needs node and {BASIC_REACT.relative_to(REPO)} (npm ci in interop/)")
    python = sys.executable
    server = ["node", str(BASIC_REACT), "--stdio"]
    commands = {
        "raw client (no SDK)": [python, str(REPO / "bench" / "raw_client.py"), "--", *server],
        "hostcompat check -- server": [
            *(python, "-m", "hostcompat", "check", "--format", "json", "--fail-on", "never"),
            *("--", *server),
        ],
    }
    with tempfile.TemporaryDirectory() as scratch:
        env = bytecode_env(Path(scratch)) if bytecode else None
        samples = interleaved(commands, runs, env)
    floor = statistics.median(samples["raw client (no SDK)"])
    print(f"live check of server-basic-react (stdio), {runs} runs each, interleaved ({code_note(bytecode)})")
    print(f"  {'command':<30} {'median':>9} {'min':>9} {'max':>9} {'x raw':>7}")
    for name, values in samples.items():
        median = statistics.median(values)
        low, high = min(values) * 1000, max(values) * 1000
        print(f"  {name:<30} {median * 1000:7.1f}ms {low:7.1f}ms {high:7.1f}ms {median / floor:6.2f}x")
    ratio = statistics.median(samples["hostcompat check -- server"]) / floor
    verdict = "met" if ratio <= LIVE_TARGET else "missed"
    print(f"target: live check <= {LIVE_TARGET}x the raw client: {ratio:.2f}x, {verdict} (medians)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--snapshot", type=Path)
    parser.add_argument("--bytecode", action="store_true", help="allow byte code (in a temporary cache folder)")
    parser.add_argument("--live", action="store_true", help="a live stdio check against the raw no-SDK client")
    args = parser.parse_args()
    if args.live:
        live(args.runs, args.bytecode)
        return
    python = sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        snapshot = args.snapshot or example_snapshot(Path(scratch))
        commands = {
            "python -c pass": [python, "-c", "pass"],
            'python -c "import mcp"': [python, "-c", "import mcp"],
            "hostcompat --version": [python, "-m", "hostcompat", "--version"],
            "hostcompat check <snapshot>": [
                python,
                "-m",
                "hostcompat",
                "check",
                str(snapshot),
                "--format",
                "json",
                "--fail-on",
                "never",
            ],
        }
        pdf = pdf_snapshot(Path(scratch))
        if pdf is not None:
            commands["hostcompat check <pdf snapshot>"] = [*commands["hostcompat check <snapshot>"][:4], str(pdf)]
            commands["hostcompat check <pdf snapshot>"] += ["--format", "json", "--fail-on", "never"]
        env = bytecode_env(Path(scratch)) if args.bytecode else None
        samples = interleaved(commands, args.runs, env)
    mcp_median = statistics.median(samples['python -c "import mcp"'])
    print(f"start-up, {args.runs} runs each, interleaved ({sys.version.split()[0]}; {code_note(args.bytecode)})")
    print(f"  {'command':<30} {'median':>9} {'min':>9} {'x import mcp':>13}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"  {name:<30} {median * 1000:7.1f}ms {min(values) * 1000:7.1f}ms {median / mcp_median:12.2f}x")
    print("targets: --version <= 0.15 s and <= 0.1x import mcp; check <snapshot> <= 0.25x import mcp")
    pdf_runs = samples.get("hostcompat check <pdf snapshot>")
    if pdf_runs:
        median = statistics.median(pdf_runs) * 1000
        met = "met" if median <= MCPJAM_PDF_CHECK_MS / 2 else "not met"
        print(
            f"check <pdf snapshot>: median {median:.0f} ms (min-max {min(pdf_runs) * 1000:.0f}-"
            f"{max(pdf_runs) * 1000:.0f}), {median / MCPJAM_PDF_CHECK_MS:.2f}x MCPJam's {MCPJAM_PDF_CHECK_MS:.0f} ms "
            f"(issue 18); target <= 0.5x ({MCPJAM_PDF_CHECK_MS / 2:.0f} ms): {met}"
        )
    else:
        print("check <pdf snapshot>: no pdf example in the widget corpus (run scripts/capture_widgets.py); skipped")


def json_main(argv: list[str]) -> None:
    """`--json FILE [--runs N] [--bytecode] [--live]`: only the figures `bench/summary.py` reads (issue 18), written
    to FILE: the offline check of the pdf snapshot (and MCPJam's as quoted), or with `--live` the live check of
    server-basic-react and the raw client's same exchange, interleaved.
    """
    from _figures import Figures, measured, quoted, write_figures  # bench/, the script's folder, is on the path

    parser = argparse.ArgumentParser(description="the start-up figures of issue 18, as JSON")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bytecode", action="store_true")
    parser.add_argument("--live", action="store_true")
    parser.add_argument("--start", type=Path, metavar="CHECKOUT", help="a checkout of 3cbc869: MCPJam's figure scaled")
    args = parser.parse_args(argv)
    if args.start is not None and not (args.start / "src" / "hostcompat").is_dir():
        sys.exit(f"--start: {args.start} is not a checkout of hostcompat (no src/hostcompat)")
    python, flags = sys.executable, ["--format", "json", "--fail-on", "never"]
    extra_env: dict[str, dict[str, str]] = {}
    figures = Figures("bench_startup")
    with tempfile.TemporaryDirectory() as scratch:
        env = bytecode_env(Path(scratch)) if args.bytecode else None
        note = code_note(args.bytecode)
        if args.live:
            if shutil.which("node") is None or not BASIC_REACT.is_file():
                sys.exit(f"needs node and {BASIC_REACT.relative_to(REPO)} (npm ci in interop/)")
            server = ["node", str(BASIC_REACT), "--stdio"]
            commands = {
                "live": [python, "-m", "hostcompat", "check", *flags, "--", *server],
                "raw client": [python, str(REPO / "bench" / "raw_client.py"), "--", *server],
            }
        else:
            pdf = pdf_snapshot(Path(scratch))
            if pdf is None:
                sys.exit("no pdf example in the widget corpus (python scripts/capture_widgets.py)")
            commands = {"check pdf": [python, "-m", "hostcompat", "check", str(pdf), *flags]}
            figures.quoted["check pdf"] = quoted("ms", MCPJAM_PDF_CHECK_MS)
            if args.start is not None:
                commands["check pdf at start"] = commands["check pdf"]
                extra_env["check pdf at start"] = {"PYTHONPATH": str((args.start / "src").resolve())}
            else:
                figures.skipped["mcpjam scaled"] = "needs --start CHECKOUT (a checkout of 3cbc869)"
        samples = interleaved(commands, max(1, args.runs), env, extra_env)
    for name, seconds in samples.items():
        figures.measured[name] = measured("ms", (value * 1000 for value in seconds), note)
    start = samples.get("check pdf at start")
    if start is not None:
        scaled = (value * 1000 * MCPJAM_PDF_CHECK_MS / START_PDF_CHECK_MS for value in start)
        why = (
            f"MCPJam's {MCPJAM_PDF_CHECK_MS:.0f} ms x hostcompat at 3cbc869 timed here"
            f" / its {START_PDF_CHECK_MS:.0f} ms quoted beside it in issue 18"
        )
        figures.measured["mcpjam scaled"] = measured("ms", scaled, why)
    write_figures(args.json, figures)


if __name__ == "__main__":
    if "--json" in sys.argv:
        json_main(sys.argv[1:])
    else:
        main()
