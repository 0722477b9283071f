"""The generated client-rules schema and the rule validator agree on a corpus of valid and invalid rule files."""

from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from hostcompat.clients.rule_schema import client_rules_schema
from hostcompat.clients.rules import parse_rule_document
from hostcompat.errors import CatalogError

Mutation = Callable[[dict[str, Any]], None]


def _document() -> dict[str, Any]:
    rule = {
        "id": "acme.cap-tool-count",
        "title": "Acme: at most 10 tools",
        "clients": [{"name": "acme-client", "versions": ">=1.0,<2"}],
        "methods": ["tools/list"],
        "trigger": {"kind": "always"},
        "rewrite": {"op": "cap-tool-count", "max_tools": 10},
        "source": {"url": "https://example.org/acme/issues/1", "kind": "issue"},
        "date": "2026-11-30",
    }
    return {"format": 1, "rules": [rule]}


def _rule(**changes: Any) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        document["rules"][0].update(changes)

    return mutate


CASES: list[tuple[str, Mutation, bool]] = [
    ("as is", lambda doc: None, True),
    ("disabled ids", lambda doc: doc.update(disabled=["a.b"]), True),
    ("optional texts", _rule(symptom="s", notes="n", references=["https://example.org/x"], enabled=False), True),
    (
        "content-types trigger",
        _rule(
            methods=["tools/call"],
            trigger={"kind": "content-types", "types": ["image"]},
            rewrite={"op": "drop-structured-content"},
        ),
        True,
    ),
    (
        "schema keywords",
        _rule(rewrite={"op": "drop-schema-keywords", "keywords": ["format"], "fields": ["inputSchema"]}),
        True,
    ),
    ("punctuation", _rule(rewrite={"op": "sanitize-tool-names", "allowed_punctuation": "_.-"}), True),
    ("format 2", lambda doc: doc.update(format=2), False),
    ("bad id", _rule(id="Acme"), False),
    ("blank title", _rule(title=" "), False),
    ("no clients", _rule(clients=[]), False),
    ("client with an extra key", _rule(clients=[{"name": "a", "os": "x"}]), False),
    ("unknown method", _rule(methods=["tools/drop"]), False),
    ("method the operation does not act on", _rule(methods=["tools/call"]), False),
    ("unknown trigger", _rule(trigger={"kind": "sometimes"}), False),
    ("trigger without its types", _rule(trigger={"kind": "content-types"}), False),
    ("unknown operation", _rule(rewrite={"op": "explode"}), False),
    ("operation without its parameter", _rule(rewrite={"op": "cap-tool-count"}), False),
    ("parameter out of range", _rule(rewrite={"op": "cap-tool-count", "max_tools": 0}), False),
    ("unknown parameter", _rule(rewrite={"op": "cap-tool-count", "max_tools": 3, "x": 1}), False),
    ("narrowing keyword", _rule(rewrite={"op": "drop-schema-keywords", "keywords": ["properties"]}), False),
    ("repeated keyword", _rule(rewrite={"op": "drop-schema-keywords", "keywords": ["format", "format"]}), False),
    ("unknown schema field", _rule(rewrite={"op": "inline-schema-refs", "fields": ["resultSchema"]}), False),
    ("punctuation without _", _rule(rewrite={"op": "sanitize-tool-names", "allowed_punctuation": "-"}), False),
    ("letters as punctuation", _rule(rewrite={"op": "sanitize-tool-names", "allowed_punctuation": "_a"}), False),
    (
        "rename needs always",
        _rule(
            methods=["tools/list"],
            trigger={"kind": "content-types", "types": ["image"]},
            rewrite={"op": "truncate-tool-names", "max_length": 32},
        ),
        False,
    ),
    ("http source", _rule(source={"url": "http://example.org", "kind": "issue"}), False),
    ("unknown source kind", _rule(source={"url": "https://example.org", "kind": "rumour"}), False),
    ("bad date", _rule(date="2026-13"), False),
    ("enabled as text", _rule(enabled="yes"), False),
    ("unknown rule key", _rule(colour="blue"), False),
    ("bad disabled id", lambda doc: doc.update(disabled=["Not An Id"]), False),
    ("description not text", lambda doc: doc.update(description=7), False),
]


@pytest.mark.parametrize(("mutate", "valid"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_the_schema_and_the_validator_agree(mutate: Mutation, valid: bool) -> None:
    document = _document()
    mutate(document)
    try:
        parse_rule_document(document, origin="rules.json")
        python_accepts = True
    except CatalogError:
        python_accepts = False
    schema_accepts = not list(jsonschema.Draft202012Validator(client_rules_schema()).iter_errors(document))
    assert (python_accepts, schema_accepts) == (valid, valid)


@pytest.mark.parametrize(
    "mutate",
    [
        _rule(clients=[{"name": "a", "versions": ">=>1"}]),
        lambda doc: doc["rules"].append(dict(doc["rules"][0])),
    ],
    ids=["version range that does not parse", "repeated id"],
)
def test_only_the_validator_refuses_what_a_schema_cannot_say(mutate: Mutation) -> None:
    document = _document()
    mutate(document)
    assert not list(jsonschema.Draft202012Validator(client_rules_schema()).iter_errors(document))
    with pytest.raises(CatalogError):
        parse_rule_document(document, origin="rules.json")
