"""Fails when a source file of the package is over the size limit, naming each file and its line count.

One module per concept keeps files short; a file over the limit is a module that holds more than one. Run from
`scripts/check`: `python scripts/check_sizes.py [--limit 500]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "hostcompat"
LIMIT = 500
GENERATED = frozenset({"_dataclass_methods", "_regex_codes"})
"""Folders of generated modules, not read as code."""


def oversized(root: Path, limit: int) -> list[tuple[Path, int]]:
    """Every `.py` file under `root` with more than `limit` lines, with its line count, by path (the generated modules
    of `_dataclass_methods/` and `_regex_codes/` aside: they are data written by `scripts/gen_dataclass_code.py` and
    `scripts/gen_regex_codes.py`).
    """
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.parent.name in GENERATED and path.name != "__init__.py":
            continue
        with path.open("rb") as lines:
            count = sum(1 for _ in lines)
        if count > limit:
            found.append((path, count))
    return found


def main(argv: list[str] | None = None) -> int:
    """Print each oversized file and return 1, or return 0 when there is none."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"most lines a file may have (default {LIMIT})")
    args = parser.parse_args(argv)
    found = oversized(SOURCE, args.limit)
    for path, count in found:
        sys.stderr.write(f"{path.relative_to(ROOT)}: {count} lines (over {args.limit})\n")
    if found:
        sys.stderr.write(f"{len(found)} source file(s) over {args.limit} lines: split them, one module per concept\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
