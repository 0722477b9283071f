"""The logic of the repository's GitHub Action (`action.yml`), runnable on any machine.

It runs `hostcompat check` once on what the inputs name (a command, URLs or snapshots, host config files, a registry
`server.json`, or the built-in demo), keeps the JSON report, and renders from it:

- SARIF 2.1.0 for code scanning (`HOSTCOMPAT_SARIF`, default `hostcompat.sarif`);
- a Markdown job summary appended to `$GITHUB_STEP_SUMMARY` (a table per host across the servers, then the report);
- step outputs appended to `$GITHUB_OUTPUT`: `exit-code`, `sarif`, `report`, `servers`, `not-checked`.

The exit code is `hostcompat check`'s own (`--fail-on`, or `--baseline` when given): 0, 1, or 2 for unusable inputs.
With `HOSTCOMPAT_DEFER_EXIT=true` (what the action sets) the script exits 0 after writing `exit-code`, so the SARIF
upload runs before a later step fails the job.

Inputs come from the environment, as the action passes them: `HOSTCOMPAT_COMMAND` (a server command line, split as
a POSIX shell would), `HOSTCOMPAT_TARGET` (URLs or snapshot files, one per line or space-separated),
`HOSTCOMPAT_CONFIG` and `HOSTCOMPAT_REGISTRY` (files, one per line), `HOSTCOMPAT_DEMO` (`true`), `HOSTCOMPAT_HOSTS`
(host ids), `HOSTCOMPAT_FAIL_ON`, `HOSTCOMPAT_BASELINE` (an earlier JSON report), `HOSTCOMPAT_REPORT` (where to keep
the JSON report, default `hostcompat-report.json`), `HOSTCOMPAT_ARGS` (more `check` options, shell-split).
Locally: `HOSTCOMPAT_DEMO=true GITHUB_STEP_SUMMARY=summary.md python scripts/github_action.py`.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

SUMMARY_LIMIT = 900 * 1024
"""Bytes of Markdown written to the job summary at most (GitHub takes 1 MiB per step)."""

FAIL_ON = ("blocked", "degraded", "unknown", "never")


def _words(text: str) -> list[str]:
    return [word for line in text.splitlines() for word in shlex.split(line)]


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def check_arguments(env: Mapping[str, str], report: str) -> list[str]:
    """The `hostcompat check` command line the inputs ask for, writing the JSON report to `report`."""
    fail_on = env.get("HOSTCOMPAT_FAIL_ON", "").strip() or "blocked"
    if fail_on not in FAIL_ON:
        raise SystemExit(f"fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
    argv = ["check", *_words(env.get("HOSTCOMPAT_TARGET", ""))]
    argv += [option for path in _lines(env.get("HOSTCOMPAT_CONFIG", "")) for option in ("--config", path)]
    argv += [option for path in _lines(env.get("HOSTCOMPAT_REGISTRY", "")) for option in ("--registry", path)]
    if env.get("HOSTCOMPAT_DEMO", "").strip().lower() == "true":
        argv.append("--demo")
    hosts = _words(env.get("HOSTCOMPAT_HOSTS", "").replace(",", " "))
    argv += [option for host in hosts for option in ("--host", host)]
    baseline = env.get("HOSTCOMPAT_BASELINE", "").strip()
    if baseline:
        argv += ["--baseline", baseline]
    argv += ["--fail-on", fail_on, "--format", "json", "-o", report, *_words(env.get("HOSTCOMPAT_ARGS", ""))]
    command = _words(env.get("HOSTCOMPAT_COMMAND", ""))
    return [*argv, "--", *command] if command else argv


def summary_markdown(document: object, code: int, fail_on: str) -> str:
    """The job summary: the outcome, a table per host across the servers, then the Markdown report."""
    from hostcompat.report.markdown import escape_markdown, render_markdown
    from hostcompat.report.merge import host_summary
    from hostcompat.report.model import ReportDocument

    report: ReportDocument = document  # type: ignore[assignment]  # read_report checked it
    servers = report["servers"]
    not_checked = sum(1 for server in servers if server.get("error") or not server.get("hosts"))
    outcome = {0: "passed", 1: "failed"}.get(code, "could not run")
    lines = [
        "# hostcompat",
        "",
        f"**{outcome}** (`--fail-on {fail_on}`): {len(servers)} server(s) checked, {not_checked} could not be checked.",
        "",
        "| host | works | degraded | blocked | unknown |",
        "|---|---:|---:|---:|---:|",
    ]
    for tally in host_summary(servers):
        counts = (tally["works"], tally["degraded"], tally["blocked"], tally["unknown"])
        lines.append(f"| {escape_markdown(tally['hostLabel'])} | " + " | ".join(str(count) for count in counts) + " |")
    head = "\n".join(lines) + "\n\n"
    body = render_markdown(report)
    room = SUMMARY_LIMIT - len(head.encode("utf-8"))
    if len(body.encode("utf-8")) > room:
        cut = body.encode("utf-8")[: max(room - 200, 0)].decode("utf-8", "ignore")
        body = cut[: cut.rfind("\n") + 1] + "\n*(the report is cut here: the full one is the JSON report)*\n"
    return head + body


def _append(path: str | None, text: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as stream:
            stream.write(text)


def run(env: Mapping[str, str]) -> int:
    """Check, write the SARIF, the summary and the outputs; the check's exit code."""
    from hostcompat.output_files import write_output
    from hostcompat.report.reader import read_report
    from hostcompat.report.render import render_report

    report = env.get("HOSTCOMPAT_REPORT", "").strip() or "hostcompat-report.json"
    sarif = env.get("HOSTCOMPAT_SARIF", "").strip() or "hostcompat.sarif"
    fail_on = env.get("HOSTCOMPAT_FAIL_ON", "").strip() or "blocked"
    argv = check_arguments(env, report)
    sys.stderr.write("hostcompat " + shlex.join(argv) + "\n")
    Path(report).unlink(missing_ok=True)  # a report left by an earlier run is never taken for this one
    code = subprocess.run([sys.executable, "-m", "hostcompat", *argv], check=False).returncode
    outputs = [f"exit-code={code}", f"report={report}"]
    if code in (0, 1) and Path(report).is_file():
        document = read_report(report)
        write_output(sarif, render_report(document, "sarif"))
        servers = document["servers"]
        not_checked = sum(1 for server in servers if server.get("error") or not server.get("hosts"))
        outputs += [f"sarif={sarif}", f"servers={len(servers)}", f"not-checked={not_checked}"]
        _append(env.get("GITHUB_STEP_SUMMARY"), summary_markdown(document, code, fail_on))
    else:
        code = code if code not in (0, 1) else 2
        why = "# hostcompat\n\n**could not run**: `hostcompat check` exited %d; its standard error is in the log.\n"
        _append(env.get("GITHUB_STEP_SUMMARY"), why % code)
    _append(env.get("GITHUB_OUTPUT"), "".join(line + "\n" for line in outputs))
    return code


def main() -> int:
    """Run as the action's step (see the module docstring)."""
    code = run(os.environ)
    return 0 if os.environ.get("HOSTCOMPAT_DEFER_EXIT", "").strip().lower() == "true" else code


if __name__ == "__main__":
    sys.exit(main())
