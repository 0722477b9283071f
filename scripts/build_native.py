"""Build the scanner's optional C extension (`hostcompat.engine.scan.js._clexer`) where a compiler is present.

The extension only makes the scanner faster: without it the pure-Python lexer gives the same results, so a
machine without a compiler, or a compiler failure, skips the build quietly. `.ci/run` runs this after the
editable install to build in place (`python scripts/build_native.py`); the wheel's build hook (`hatch_build.py`)
calls `build_extension` to build into the wheel. `--quiet` drops the one-line outcome.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "hostcompat" / "engine" / "scan" / "js" / "_clexer.c"
MODULE_PATH = "hostcompat/engine/scan/js"
"""Where the extension sits in the package (a folder of the wheel, or of src/ for the editable install)."""


def extension_name() -> str:
    """The extension's file name for this interpreter (`_clexer.cpython-311-x86_64-linux-gnu.so`, ...)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return "_clexer" + str(suffix)


def _command(output: Path) -> list[str] | None:
    linker = sysconfig.get_config_var("LDSHARED")
    include = sysconfig.get_paths().get("include")
    if not linker or not include or os.name == "nt":  # MSVC builds are left to a later need
        return None
    flags = ["-O2", "-fPIC", "-std=c99", "-fno-strict-aliasing", "-Wall"]
    return [*shlex.split(str(linker)), *flags, "-I", include, str(SOURCE), "-o", str(output)]


def build_extension(target_dir: Path) -> Path | None:
    """Compile the extension into `target_dir`; its path, or None when there is no compiler or the build failed."""
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / extension_name()
    with tempfile.TemporaryDirectory() as scratch:
        built = Path(scratch) / target.name
        command = _command(built)
        if command is None:
            return None
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=300)
        except (OSError, subprocess.SubprocessError):
            return None
        os.replace(built, target)  # whole or not at all: a running interpreter never loads half a file
    return target


def main(argv: list[str] | None = None) -> int:
    """Build in place under src/ (what the editable install imports); always succeeds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    built = build_extension(ROOT / "src" / MODULE_PATH)
    if not args.quiet:
        outcome = f"built {built.relative_to(ROOT)}" if built else "no C compiler: the pure-Python lexer is used"
        sys.stdout.write(f"build_native: {outcome}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
