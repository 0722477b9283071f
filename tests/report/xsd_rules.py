"""A structural validator of XML against the vendored `junit-10.xsd`, read from the schema file itself.

No XSD validator is among the test dependencies, so this reads the schema's own rules and checks them: each
element is declared (top-level `xs:element`), has only the attributes its type declares and every `use="required"`
one, attributes of a pattern type (`SUREFIRE_TIME`) match the pattern, children are among the elements its
`xs:choice`/`xs:sequence` refers to, and text appears only in an element that is `mixed` or of `xs:string` type.
The order a `xs:sequence` imposes is not checked (in this schema a sequence holds one kind of child or optional
ones), nor occurrence counts beyond that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

XS = "{http://www.w3.org/2001/XMLSchema}"
JUNIT_XSD = Path(__file__).resolve().parent / "data" / "junit-10.xsd"


@dataclass
class Declared:
    attributes: dict[str, str] = field(default_factory=dict)  # name → type
    required: set[str] = field(default_factory=set)
    children: set[str] = field(default_factory=set)
    text: bool = False


def _complex(node: ET.Element, out: Declared) -> None:
    out.text = out.text or node.get("mixed") == "true"
    for attribute in node.iter(f"{XS}attribute"):
        out.attributes[attribute.attrib["name"]] = attribute.get("type", "xs:string")
        if attribute.get("use") == "required":
            out.required.add(attribute.attrib["name"])
    for child in node.iter(f"{XS}element"):
        out.children.add(child.get("ref") or child.attrib["name"])


def load_rules(path: Path = JUNIT_XSD) -> tuple[dict[str, Declared], dict[str, re.Pattern[str]]]:
    schema = ET.parse(path).getroot()
    complex_types = {node.attrib["name"]: node for node in schema.findall(f"{XS}complexType")}
    patterns = {
        node.attrib["name"]: re.compile(node.find(f"{XS}restriction/{XS}pattern").attrib["value"])  # type: ignore[union-attr]
        for node in schema.findall(f"{XS}simpleType")
    }
    rules: dict[str, Declared] = {}
    for element in schema.findall(f"{XS}element"):
        declared = Declared()
        kind = element.get("type")
        if kind == "xs:string":
            declared.text = True
        elif kind is not None:
            _complex(complex_types[kind], declared)
        inline = element.find(f"{XS}complexType")
        if inline is not None:
            _complex(inline, declared)
        rules[element.attrib["name"]] = declared
    return rules, patterns


def problems(xml_text: str, root_names: tuple[str, ...] = ("testsuites", "testsuite")) -> list[str]:
    """Where `xml_text` breaks the schema's rules (empty: it validates)."""
    rules, patterns = load_rules()
    root = ET.fromstring(xml_text.encode("utf-8"))
    found: list[str] = []
    if root.tag not in root_names:
        found.append(f"root element {root.tag!r} is not one of {root_names}")

    def visit(node: ET.Element, where: str) -> None:
        declared = rules.get(node.tag)
        if declared is None:
            found.append(f"{where}: undeclared element")
            return
        for name, value in node.attrib.items():
            if name not in declared.attributes:
                found.append(f"{where}: undeclared attribute {name!r}")
            elif declared.attributes[name] in patterns and not patterns[declared.attributes[name]].fullmatch(value):
                found.append(f"{where}: attribute {name!r}={value!r} does not match its pattern")
        found.extend(f"{where}: required attribute {name!r} missing" for name in declared.required - set(node.attrib))
        has_text = bool((node.text or "").strip()) or any((child.tail or "").strip() for child in node)
        if has_text and not declared.text:
            found.append(f"{where}: text is not allowed here")
        for index, child in enumerate(node):
            if child.tag not in declared.children:
                found.append(f"{where}: child {child.tag!r} is not allowed")
            visit(child, f"{where}/{child.tag}[{index}]")

    visit(root, root.tag)
    return found
