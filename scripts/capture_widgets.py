"""Capture the widget corpus: what each installed npm MCP App server really serves, for the scanner's tests.

Starts every widget server installed in `interop/node_modules` over stdio through `hostcompat.probe.capture` and
writes, per package, its `tools` (with `_meta`) and each `ui://` resource's `resources/read` content items. Two kinds
of widget have no server to start, and are written the same way with their source named: the built widgets a
package ships next to the metadata its server would serve (`package-file`), mcp-ui resources made by
`@mcp-ui/server`'s own `createUIResource` from the hand-written pages in `testkit/widget_pages/mcp_ui/`, and
skybridge views (`testkit/widget_pages/skybridge/*.jsx`, hand-written) bundled with the pinned skybridge by esbuild.

Run after `npm ci` in interop/: `python scripts/capture_widgets.py [--out interop/corpus]`. Exits 1 when a server
could not be captured whole, so a broken corpus fails CI instead of shrinking the test set.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Final

import anyio

from hostcompat.probe import Limits, Snapshot, StdioTarget, capture_many

REPO: Final = Path(__file__).resolve().parents[1]
INTEROP: Final = REPO / "interop"
NODE_MODULES: Final = INTEROP / "node_modules"
MCP_UI_PAGES: Final = REPO / "testkit" / "widget_pages" / "mcp_ui"
SKYBRIDGE_VIEWS: Final = REPO / "testkit" / "widget_pages" / "skybridge"
CORPUS_SCHEMA: Final = "hostcompat.widget-corpus/1"
"""The format of `index.json` and of each package file; the corpus test refuses any other."""

LIMITS: Final = Limits(
    connect_timeout=60.0,
    step_timeout=30.0,
    total_timeout=180.0,
    max_message_bytes=32 * 1024 * 1024,
    max_bytes_per_resource=24 * 1024 * 1024,
    max_total_bytes=256 * 1024 * 1024,
)
"""Roomy limits: the corpus must hold every widget whole (the largest example bundle is over 4 MB)."""

_NO_WIDGET_SERVERS: Final = frozenset(
    {
        "@modelcontextprotocol/server-everything",
        "@modelcontextprotocol/server-filesystem",
        "@modelcontextprotocol/server-memory",
        "@modelcontextprotocol/server-sequential-thinking",
    }
)
_SPECIAL_ARGS: Final[Mapping[str, tuple[str, ...]]] = {"@casys/mcp-erpnext": ()}
_EXTRA_SERVERS: Final = ("@casys/mcp-erpnext",)
_PACKAGE_FILE_WIDGETS: Final = (("sunpeak", "template/dist"),)
_MCP_UI_PACKAGE: Final = "@mcp-ui/server"
_MCP_UI_VARIANTS: Final[Mapping[str, Mapping[str, Any]]] = {
    "plain": {},
    "apps-sdk-adapter": {"appsSdk": {"enabled": True}},
    "mcp-apps-adapter": {"mcpApps": {"enabled": True}},
}
_MCP_UI_SCRIPT: Final = """
import { createUIResource } from "@mcp-ui/server";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((page) => createUIResource({
  uri: page.uri,
  content: { type: "rawHtml", htmlString: page.html },
  encoding: "text",
  ...(Object.keys(page.adapters).length ? { adapters: page.adapters } : {}),
}));
process.stdout.write(JSON.stringify(out));
"""

_BUNDLE_SCRIPT: Final = """
import { build } from "esbuild";
const [entry, modules] = process.argv.slice(1);
const result = await build({
  entryPoints: [entry], bundle: true, minify: true, format: "esm", write: false, jsx: "automatic",
  nodePaths: [modules], define: { "process.env.NODE_ENV": '"production"' }, logLevel: "error",
});
const code = result.outputFiles[0].text.replace(/<\\/script/gi, "<\\\\/script");
process.stdout.write(
  `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root"></div>` +
  `<script type="module">${code}</script></body></html>`
);
"""


@dataclass(frozen=True)
class Server:
    """One npm package whose stdio server serves widgets."""

    package: str
    version: str
    entry: Path
    args: tuple[str, ...]


def installed_version(package: str) -> str | None:
    """The version of an installed package, or None when it is not installed."""
    manifest = NODE_MODULES / package / "package.json"
    if not manifest.is_file():
        return None
    version = json.loads(manifest.read_text("utf-8")).get("version")
    return version if isinstance(version, str) else None


def find_servers() -> list[Server]:
    """The installed example servers (`@modelcontextprotocol/server-*` with widgets) and the extra widget servers."""
    names = sorted(
        f"@modelcontextprotocol/{path.name}" for path in (NODE_MODULES / "@modelcontextprotocol").glob("server-*")
    )
    servers: list[Server] = []
    for package in [*names, *_EXTRA_SERVERS]:
        version = installed_version(package)
        if version is None or package in _NO_WIDGET_SERVERS:
            continue
        manifest = json.loads((NODE_MODULES / package / "package.json").read_text("utf-8"))
        entry = _entry(package, manifest)
        if entry is not None:
            servers.append(Server(package, version, entry, _SPECIAL_ARGS.get(package, ("--stdio",))))
    return servers


def _entry(package: str, manifest: Mapping[str, Any]) -> Path | None:
    dist = NODE_MODULES / package / "dist" / "index.js"
    if dist.is_file():
        return dist
    bins = manifest.get("bin")
    target = next(iter(bins.values()), None) if isinstance(bins, dict) else bins
    return NODE_MODULES / package / target if isinstance(target, str) else None


def _file_name(package: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "__", package.lstrip("@")) + ".json"


def _record(package: str, version: str, source: str, snapshot: Snapshot | None, **parts: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"schema": CORPUS_SCHEMA, "package": package, "version": version, "source": source}
    if snapshot is not None:
        data = snapshot.to_dict()
        record["tools"] = data.get("tools", [])
        record["resources"] = data.get("resources", [])
        record["uiResources"] = {
            uri: {"contents": item.get("contents", []), "error": item.get("error"), "truncated": item.get("truncated")}
            for uri, item in data.get("uiResources", {}).items()
        }
        record["events"] = [event.to_dict() for event in snapshot.events]
    record.update(parts)
    return record


def _problems(snapshot: Snapshot) -> list[str]:
    problems = [f"{event.code}: {event.message}" for event in snapshot.events if event.severity == "error"]
    for uri, item in snapshot.ui_resources.items():
        if item.error is not None or item.truncated or not item.contents:
            problems.append(f"{uri} was not read whole")
    if not snapshot.ui_resources:
        problems.append("no ui:// resource was read")
    return problems


async def capture_servers(servers: Sequence[Server]) -> list[Snapshot]:
    """Probe every server over stdio (two at a time: the machine is small and some servers start slowly)."""
    targets = [StdioTarget("node", [str(s.entry), *s.args], cwd=str(INTEROP)) for s in servers]
    return await capture_many(targets, limits=LIMITS, concurrency=2)


def package_file_widgets(package: str, folder: str) -> dict[str, Any] | None:
    """Built widgets a package ships as `<name>/<name>.html` beside `<name>.json` (the resource its server lists)."""
    version = installed_version(package)
    if version is None:
        return None
    ui_resources: dict[str, Any] = {}
    listings: list[dict[str, Any]] = []
    for meta_path in sorted((NODE_MODULES / package / folder).glob("*/*.json")):
        html_path = meta_path.with_suffix(".html")
        if not html_path.is_file():
            continue
        listing = json.loads(meta_path.read_text("utf-8"))
        uri, mime = listing.get("uri"), listing.get("mimeType")
        if not isinstance(uri, str) or not isinstance(mime, str):
            continue
        item: dict[str, Any] = {"uri": uri, "mimeType": mime, "text": html_path.read_text("utf-8")}
        if isinstance(listing.get("_meta"), dict):
            item["_meta"] = listing["_meta"]
        listings.append(listing)
        ui_resources[uri] = {"contents": [item], "error": None, "truncated": False}
    files = [str(p.relative_to(NODE_MODULES)) for p in sorted((NODE_MODULES / package / folder).glob("*/*.html"))]
    return _record(package, version, "package-file", None, resources=listings, uiResources=ui_resources, files=files)


def mcp_ui_widgets() -> dict[str, Any] | None:
    """The hand-written mcp-ui pages as `@mcp-ui/server` serves them: plain, and with each of its host adapters."""
    version = installed_version(_MCP_UI_PACKAGE)
    pages = sorted(MCP_UI_PAGES.glob("*.html"))
    if version is None or not pages:
        return None
    requests = [
        {"uri": f"ui://hostcompat-corpus/{page.stem}/{variant}", "html": page.read_text("utf-8"), "adapters": adapters}
        for page in pages
        for variant, adapters in _MCP_UI_VARIANTS.items()
    ]
    done = subprocess.run(
        ["node", "--input-type=module", "-e", _MCP_UI_SCRIPT],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        cwd=INTEROP,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"createUIResource failed: {done.stderr[-2000:]}")
    made = json.loads(done.stdout)
    ui_resources = {
        item["resource"]["uri"]: {"contents": [item["resource"]], "error": None, "truncated": False} for item in made
    }
    return _record(_MCP_UI_PACKAGE, version, "mcp-ui-createUIResource", None, uiResources=ui_resources)


def skybridge_widgets() -> dict[str, Any] | None:
    """The hand-written skybridge views, bundled as a skybridge app ships them (one inline module per view)."""
    version = installed_version("skybridge")
    views = sorted(SKYBRIDGE_VIEWS.glob("*.jsx"))
    if version is None or installed_version("esbuild") is None or not views:
        return None
    ui_resources: dict[str, Any] = {}
    for view in views:
        done = subprocess.run(
            ["node", "--input-type=module", "-e", _BUNDLE_SCRIPT, str(view), str(NODE_MODULES)],
            capture_output=True,
            text=True,
            cwd=INTEROP,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"bundling {view.name} failed: {done.stderr[-2000:]}")
        uri = f"ui://hostcompat-corpus/skybridge/{view.stem}"
        item = {"uri": uri, "mimeType": "text/html;profile=mcp-app", "text": done.stdout}
        ui_resources[uri] = {"contents": [item], "error": None, "truncated": False}
    return _record("skybridge", version, "esbuild-bundle", None, uiResources=ui_resources)


def _write_json(path: Path, data: object) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        json.dump(data, stream, ensure_ascii=False, indent=1)
        stream.write("\n")
    os.chmod(temporary, 0o644)
    Path(temporary).replace(path)


def main(argv: Sequence[str] | None = None) -> int:
    """Capture the corpus into `--out`; 1 when something could not be captured whole, 2 when nothing is installed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=INTEROP / "corpus", help="corpus folder (default interop/corpus)")
    options = parser.parse_args(argv)
    if shutil.which("node") is None or not NODE_MODULES.is_dir():
        sys.stderr.write("capture_widgets: node and interop/node_modules are required (run npm ci in interop/)\n")
        return 2
    out: Path = options.out
    out.mkdir(parents=True, exist_ok=True)
    ignore = out / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# captured by scripts/capture_widgets.py: third-party code, never committed\n*\n", "utf-8")
    servers = find_servers()
    snapshots = anyio.run(capture_servers, servers)
    records: list[dict[str, Any]] = []
    failures: list[str] = []
    for server, snapshot in zip(servers, snapshots, strict=True):
        records.append(_record(server.package, server.version, "stdio", snapshot))
        failures.extend(f"{server.package}: {problem}" for problem in _problems(snapshot))
    for package, folder in _PACKAGE_FILE_WIDGETS:
        record = package_file_widgets(package, folder)
        if record is not None:
            records.append(record)
    records.extend(made for made in (mcp_ui_widgets(), skybridge_widgets()) if made is not None)
    index: list[dict[str, Any]] = []
    for record in records:
        name = _file_name(record["package"])
        _write_json(out / name, record)
        uris = sorted(record.get("uiResources", {}))
        index.append({"package": record["package"], "version": record["version"], "source": record["source"]})
        index[-1].update({"file": name, "uris": uris})
    captured_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    _write_json(out / "index.json", {"schema": CORPUS_SCHEMA, "capturedAt": captured_at, "packages": index})
    widgets = sum(len(entry["uris"]) for entry in index)
    sys.stderr.write(f"capture_widgets: {widgets} widgets from {len(index)} packages written to {out}\n")
    for failure in failures:
        sys.stderr.write(f"capture_widgets: {failure}\n")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
