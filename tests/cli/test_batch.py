"""Batch and CI workflows end to end: `check --format junit`, `check --baseline`, `diff`, `check --shard` and `merge`.

The servers are snapshot files (copies of the example server's, one with its tools removed), so each run is fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hostcompat.report.merge import host_summary
from tests.cli._support import run
from tests.report.xsd_rules import problems


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Five snapshot files: the example server's four times (under other names), and once without its tools."""
    folder = tmp_path_factory.mktemp("batch")
    board = folder / "board.json"
    code, _, err = run("snapshot", "--demo", "-o", str(board))
    assert code == 0, err
    paths = [board]
    for name in ("alpha", "beta", "gamma"):
        paths.append(folder / f"{name}.json")
        paths[-1].write_bytes(board.read_bytes())
    bare = json.loads(board.read_text("utf-8"))
    bare["tools"] = []
    paths.append(folder / "bare.json")
    paths[-1].write_text(json.dumps(bare), "utf-8")
    return paths


def _report(path: Path) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads(path.read_text("utf-8"))  # type: ignore[type-arg]
    return data


def test_check_writes_junit_that_validates(snapshots: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "junit.xml"
    code, _, err = run("check", *map(str, snapshots[:2]), "--format", "junit", "-o", str(out), "--fail-on", "degraded")
    assert code == 1, err  # some host is degraded: the run fails, and so do those testcases
    xml = out.read_text("utf-8")
    assert problems(xml) == []
    assert xml.count("<testsuite ") == 2
    assert '<testcase classname="' in xml and 'name="claude-code"' in xml and "<failure " in xml


def test_baseline_fails_on_what_got_worse_and_says_what_got_better(snapshots: list[Path], tmp_path: Path) -> None:
    board, alpha = map(str, snapshots[:2])
    baseline = tmp_path / "baseline.json"
    assert run("check", board, alpha, "--format", "json", "--fail-on", "never", "-o", str(baseline))[0] == 0
    report = _report(baseline)
    (worse_host,) = [host for host in report["servers"][0]["hosts"] if host["hostId"] == "claude-code"]
    # board on Claude Code (degraded): pretend it used to work, with no findings
    worse_host["verdict"], worse_host["findings"] = "works", []
    better_host = report["servers"][1]["hosts"][0]  # alpha: pretend this host used to be blocked
    better_host["verdict"] = "blocked"
    better_host["findings"].append(_finding("APPS-OLD-001"))
    baseline.write_text(json.dumps(report), "utf-8")
    code, out, err = run("check", board, alpha, "--baseline", str(baseline), "--fail-on", "never")
    assert code == 1, err
    host = report["servers"][1]["hosts"][0]["hostId"]
    assert f"  + {alpha} · {host}: blocked → works" in err
    assert f"  + {alpha} · {host}: APPS-OLD-001 gone" in err
    assert f"  - {board} · claude-code: works → degraded" in err
    assert f"  - {board} · claude-code: new finding APPS-RENDER-002" in err
    assert "worse than the baseline:" in err.splitlines()[-1]
    assert out  # the report itself is still written
    # the same comparison offline, with `diff`
    current = tmp_path / "current.json"
    run("check", board, alpha, "--format", "json", "--fail-on", "never", "-o", str(current))
    code, text, _ = run("diff", str(baseline), str(current))
    assert code == 1 and f"  + {alpha} · {host}: blocked → works" in text
    code, text, _ = run("diff", str(baseline), str(current), "--format", "json")
    changes = json.loads(text)
    assert code == 1 and changes["schema"] == "hostcompat.diff/1"
    assert {"server": alpha, "host": host, "kind": "verdict", "before": "blocked", "after": "works"} in changes[
        "better"
    ]
    # only better: exit 0
    code, text, _ = run("diff", str(current), str(current))
    assert code == 0 and text == "no worse than the baseline: 0 worse, 0 better\n"
    report["servers"][0] = _report(current)["servers"][0]  # board as it is now: only alpha's changes remain
    baseline.write_text(json.dumps(report), "utf-8")
    code, _, err = run("check", board, alpha, "--baseline", str(baseline), "--fail-on", "blocked")
    assert code == 0, err
    assert "no worse than the baseline: 0 worse, 2 better" in err


def _finding(rule: str) -> dict:  # type: ignore[type-arg]
    return {
        "ruleId": rule,
        "lane": "apps",
        "severity": "blocker",
        "title": "t",
        "detail": "d",
        "tools": [],
        "evidence": [],
    }


def test_a_bad_baseline_or_diff_input_is_a_usage_error(snapshots: list[Path], tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.json")
    code, _, err = run("check", str(snapshots[0]), "--baseline", missing)
    assert code == 2 and "cannot read report" in err
    assert run("diff", missing, missing)[0] == 2


def _without_run_keys(report: dict) -> dict:  # type: ignore[type-arg]
    return {key: value for key, value in report.items() if key not in ("shard", "hostSummary", "notChecked")}


@pytest.mark.parametrize("count", [2, 3])
def test_shards_merged_equal_one_unsharded_run(snapshots: list[Path], tmp_path: Path, count: int) -> None:
    targets = list(map(str, snapshots))
    whole = tmp_path / "whole.json"
    run("check", *targets, "--format", "json", "--fail-on", "never", "-o", str(whole))
    parts = []
    for index in range(count, 0, -1):  # written out of order: merge puts them back
        part = tmp_path / f"part{index}.json"
        code, _, err = run(
            "check", *targets, "--shard", f"{index}/{count}", "--format", "json", "--fail-on", "never", "-o", str(part)
        )
        assert code == 0, err
        assert _report(part)["shard"] == {"index": index, "count": count}
        assert 1 <= len(_report(part)["servers"]) <= 3
        parts.append(str(part))
    merged = tmp_path / "merged.json"
    code, text, err = run("merge", *parts, "-o", str(merged))
    assert code == 0, err
    unsharded, combined = _report(whole), _report(merged)
    assert _without_run_keys(combined) == _without_run_keys(unsharded)
    assert combined["hostSummary"] == host_summary(unsharded["servers"])
    assert text.startswith("5 servers, 0 not checked\n")
    claude = next(line for line in text.splitlines() if line.startswith("Claude "))
    assert claude.split()[1:] == [str(tally) for tally in _tally(combined, "claude")]
    code, printed, _ = run("merge", *parts, "--format", "json")
    assert code == 0 and json.loads(printed) == combined


def _tally(report: dict, host: str) -> list[int]:  # type: ignore[type-arg]
    (row,) = [row for row in report["hostSummary"] if row["hostId"] == host]
    return [row["works"], row["degraded"], row["blocked"], row["unknown"]]


def test_merge_refuses_an_incomplete_set_of_shards(snapshots: list[Path], tmp_path: Path) -> None:
    part = tmp_path / "part.json"
    run("check", *map(str, snapshots), "--shard", "1/2", "--format", "json", "--fail-on", "never", "-o", str(part))
    code, _, err = run("merge", str(part))
    assert code == 2 and "shard 2/2 missing" in err
    code, _, err = run("check", str(snapshots[0]), "--shard", "3/2")
    assert code == 2 and "--shard '3/2'" in err
