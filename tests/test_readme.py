"""The README's Python examples run, in order, in one namespace: the docs cannot rot."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_the_readme_has_examples() -> None:
    assert len(BLOCK.findall(README.read_text("utf-8"))) >= 6


def test_the_readme_examples_run() -> None:
    namespace: dict[str, object] = {"__name__": "readme"}
    for number, block in enumerate(BLOCK.findall(README.read_text("utf-8")), start=1):
        code = compile(block, f"README.md python block {number}", "exec")
        exec(code, namespace)
