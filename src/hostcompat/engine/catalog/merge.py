"""Merging a user's host object into a bundled one, before the merged host is validated.

Pure dictionary work on JSON objects: `hostcompat.engine.catalog.validate.apply_overrides` checks the user's own
lists first (so errors point into the user's file), merges here, then validates the merged host in full.
"""

from __future__ import annotations

import json
from typing import Any

from hostcompat.engine.catalog.schema import FACT_TREE
from hostcompat.wire_json import WireJSON, WireObject


def merge_host(base: WireJSON, user: WireJSON) -> WireObject:
    """`base` (a host's JSON form) with `user`'s keys: aliases added, quirks and variants replaced by id or by path
    and context, fact groups merged fact by fact, anything else replaced.
    """
    merged = dict(base)
    for key, value in user.items():
        if key == "aliases" and isinstance(value, list) and all(isinstance(alias, str) for alias in value):
            merged[key] = list(dict.fromkeys([*base.get(key, []), *value]))
        elif key == "quirks" and isinstance(value, list):
            merged[key] = _merge_quirks(base.get(key, []), value)
        elif key == "variants" and isinstance(value, list):
            merged[key] = _merge_variants(base.get(key, []), value)
        elif key in FACT_TREE and isinstance(FACT_TREE[key], dict):
            merged[key] = _merge_group(base.get(key), value, FACT_TREE[key])
        else:
            merged[key] = value
    return merged


def _merge_group(base: object, user: object, node: object) -> object:
    if not isinstance(base, dict) or not isinstance(user, dict) or not isinstance(node, dict):
        return user
    merged = dict(base)
    for key, value in user.items():
        child = node.get(key)
        merged[key] = _merge_group(base.get(key), value, child) if isinstance(child, dict) else value
    return merged


def _merge_quirks(base: list[Any], user: list[Any]) -> list[Any]:
    user_ids = {item.get("id") for item in user if isinstance(item, dict) and isinstance(item.get("id"), str)}
    kept = [item for item in base if item.get("id") not in user_ids]
    return [*kept, *user]


def _merge_variants(base: list[Any], user: list[Any]) -> list[Any]:
    """The user's variants after the base's, replacing a base variant of the same path and host context."""

    def key(item: object) -> object:
        if not isinstance(item, dict):
            return None
        return json.dumps([item.get(name) for name in ("path", "os", "registration", "gate")], default=str)

    user_keys = {key(item) for item in user}
    return [*(item for item in base if key(item) not in user_keys), *user]


__all__ = ["merge_host"]
