"""Start-up cost of the CLI, side by side in one run: `python -c pass`, `python -c "import mcp"`,
`hostcompat --version`, and `hostcompat check <snapshot>` (offline: no SDK import).

Each command runs `--runs` times, interleaved round-robin so machine noise hits them alike; the table shows the
median and minimum wall time and the ratios to `import mcp`.

Run: `python bench/bench_startup.py [--runs 15] [--snapshot FILE] [--bytecode]` (without `--snapshot`, a snapshot of
the built-in example server is captured first).

With `PYTHONDONTWRITEBYTECODE` set, an editable install of hostcompat compiles its sources on every run, while `mcp`
(installed from a wheel) loads byte code: the table says so. `--bytecode` runs every command with byte code allowed,
cached in a temporary `PYTHONPYCACHEPREFIX` (nothing is written into the source tree), as an installed wheel runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--snapshot", type=Path)
    parser.add_argument("--bytecode", action="store_true", help="allow byte code (in a temporary cache folder)")
    args = parser.parse_args()
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
        env = bytecode_env(Path(scratch)) if args.bytecode else None
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for command in commands.values():
            timed(command, env)  # warm the file cache (and, with --bytecode, the byte code cache)
        for _ in range(args.runs):
            for name, command in commands.items():
                samples[name].append(timed(command, env))
    mcp_median = statistics.median(samples['python -c "import mcp"'])
    if args.bytecode:
        code = "byte code allowed (temporary cache)"
    elif os.environ.get("PYTHONDONTWRITEBYTECODE"):
        code = "PYTHONDONTWRITEBYTECODE set: an editable hostcompat compiles its sources on every run"
    else:
        code = "byte code allowed"
    print(f"start-up, {args.runs} runs each, interleaved ({sys.version.split()[0]}; {code})")
    print(f"  {'command':<30} {'median':>9} {'min':>9} {'x import mcp':>13}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"  {name:<30} {median * 1000:7.1f}ms {min(values) * 1000:7.1f}ms {median / mcp_median:12.2f}x")
    print("targets: --version <= 0.15 s and <= 0.1x import mcp; check <snapshot> <= 0.25x import mcp")


if __name__ == "__main__":
    main()
