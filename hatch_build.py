"""Hatch build hook: compile the scanner's optional C lexer into the wheel when a compiler is present.

Without a compiler (or when the build fails) the wheel stays pure Python and the scanner uses its Python
lexer, with the same results. The compile itself lives in `scripts/build_native.py`, shared with `.ci/run`.
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class NativeBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds `_clexer` to wheels; editable installs build it in place (`scripts/build_native.py`)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile, and when that worked, ship the extension and tag the wheel for this platform."""
        if self.target_name != "wheel":
            return
        spec = importlib.util.spec_from_file_location("build_native", Path(self.root) / "scripts" / "build_native.py")
        if spec is None or spec.loader is None:
            return
        native = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(native)
        if version == "editable":
            native.build_extension(Path(self.root) / "src" / native.MODULE_PATH)
            return
        self._scratch = tempfile.TemporaryDirectory()
        built = native.build_extension(Path(self._scratch.name))
        if built is None:
            return
        build_data["force_include"][str(built)] = f"{native.MODULE_PATH}/{built.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the scratch build."""
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            scratch.cleanup()
