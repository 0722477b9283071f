"""`hostcompat hosts --merge FILE`: fold an override file (a probe's) into the user's own catalog file and say what
changed, fact by fact.

The target is the last `--catalog FILE` (created when missing); the earlier ones are read as usual. The folded
document must load over the bundled catalog and the earlier files before it replaces the target, atomically.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from hostcompat.cli._wrapping import wrap
from hostcompat.engine.catalog.fold import FactChange, fact_changes, fold_documents
from hostcompat.engine.catalog.load import apply_overrides, load_catalog, read_catalog_file
from hostcompat.errors import CatalogError, InvalidInput
from hostcompat.output_files import check_output_path, write_output
from hostcompat.terminal import clean_line


def merge_into_catalog(folded_path: str, catalogs: Sequence[str], output_format: str, out: TextIO, columns: int) -> int:
    """Fold `folded_path` into `catalogs[-1]` and report the changes; 0 when it was written."""
    if not catalogs:
        raise InvalidInput("hosts --merge needs the user catalog to fold into: add --catalog FILE (created if missing)")
    *earlier, target = catalogs
    check_output_path(target)
    folded = read_catalog_file(folded_path)
    if not isinstance(folded, dict):
        raise CatalogError(f"{folded_path}: the document must be an object", value=type(folded).__name__)
    base = load_catalog(overrides=earlier)
    exists = Path(target).exists()
    user = read_catalog_file(target) if exists else None
    if user is not None and not isinstance(user, dict):
        raise CatalogError(f"{target}: the document must be an object", value=type(user).__name__)
    before = apply_overrides(base, user, source_name=target) if user is not None else base
    apply_overrides(base, folded, source_name=folded_path)  # errors point into the folded file first
    merged = fold_documents(user, folded)
    after = apply_overrides(base, merged, source_name=target)
    changes = fact_changes(before, after, folded)
    write_output(target, json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    if output_format == "json":
        document = {"target": os.fspath(target), "created": not exists, "changes": [c.to_dict() for c in changes]}
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return 0
    verb = "Created" if not exists else "Updated"
    out.write(f"{verb} {clean_line(target)} with {clean_line(folded_path)}:\n")
    for change in changes:
        out.write("\n".join(wrap(_line(change), columns, "  ", "      ")) + "\n")
    counts = {kind: sum(1 for c in changes if c.kind == kind) for kind in ("added", "changed", "unchanged")}
    out.write(f"{len(changes)} facts: " + ", ".join(f"{n} {kind}" for kind, n in counts.items()) + ".\n")
    return 0


def _line(change: FactChange) -> str:
    where = f" [{change.context.describe()}]" if change.context.describe() else ""
    after = f"{json.dumps(_plain(change.after.value))} ({change.after.provenance})"
    label = f"{change.kind} {change.host} {change.path}{where}"
    if change.kind == "changed" and change.before is not None:
        before = f"{json.dumps(_plain(change.before.value))} ({change.before.provenance})"
        return clean_line(f"{label}: {before} → {after}")
    return clean_line(f"{label} = {after}")


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


__all__ = ["merge_into_catalog"]
