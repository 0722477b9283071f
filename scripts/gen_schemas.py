"""Write the JSON Schemas of hostcompat's data files from the Python vocabularies their validators use.

Each data format has one validator in the package and one vocabulary (names, choices, patterns, limits); the
`*.schema.json` files beside the data are generated from that vocabulary, never edited by hand:

- `hosts.schema.json` from `hostcompat.engine.catalog.json_schema`,
- `client-rules.schema.json` from `hostcompat.clients.rule_schema`,
- `finding-rules.schema.json` from `hostcompat.engine.findings.rule_schema`,
- `report.schema.json` (the report document `hostcompat check --format json` writes) from
  `hostcompat.report.json_schema`.

Run: `python scripts/gen_schemas.py` rewrites each file that changed (atomically: a temporary file, then a rename);
`python scripts/gen_schemas.py --check` writes nothing and exits 1, naming each file that differs from what it would
generate (the project's checks run it).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
DATA: Final = ROOT / "src" / "hostcompat" / "data"
sys.path.insert(0, str(ROOT / "src"))  # this checkout's hostcompat, whatever is installed

GENERATORS: Final[Mapping[str, str]] = {
    "hosts.schema.json": "hostcompat.engine.catalog.json_schema:catalog_schema",
    "client-rules.schema.json": "hostcompat.clients.rule_schema:client_rules_schema",
    "finding-rules.schema.json": "hostcompat.engine.findings.rule_schema:finding_rules_schema",
    "report.schema.json": "hostcompat.report.json_schema:report_schema",
}
"""Each schema file (in the package's `data/`) and the function, `module:name`, that builds it."""


def render(schema: object) -> str:
    """The text of a schema file: JSON indented by two, non-ASCII kept, a final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def generated(file_name: str) -> str:
    """The text `file_name` should hold, built by its generator."""
    module_name, function_name = GENERATORS[file_name].split(":")
    build: Callable[[], object] = getattr(importlib.import_module(module_name), function_name)
    return render(build())


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` in one rename, so a reader never sees half a file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(temporary, 0o644)  # a file like the others in the tree, not mkstemp's 0600
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def stale(data: Path = DATA) -> list[Path]:
    """The schema files under `data` whose text differs from what their generator builds (or that are missing)."""
    out: list[Path] = []
    for file_name in GENERATORS:
        path = data / file_name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != generated(file_name):
            out.append(path)
    return out


def shown(path: Path) -> str:
    """`path` relative to the checkout when it is inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    """Generate (or with `--check`, compare) every schema file; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a schema file is stale")
    args = parser.parse_args(argv)
    outdated = stale(DATA)
    if args.check:
        for path in outdated:
            sys.stderr.write(
                f"{shown(path)}: differs from what scripts/gen_schemas.py generates; "
                "run python scripts/gen_schemas.py\n"
            )
        return 1 if outdated else 0
    for path in outdated:
        write_atomically(path, generated(path.name))
        sys.stdout.write(f"wrote {shown(path)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
