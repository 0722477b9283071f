"""`report.merge`: shards of a server list, merged back in order, with the per-host summary across servers."""

from __future__ import annotations

import json

import pytest

from hostcompat.errors import InvalidInput
from hostcompat.report import report_document
from hostcompat.report.merge import host_summary, merge_reports, parse_shard, shard_slice, summary_text
from tests.report.sample import document


@pytest.mark.parametrize("total", [0, 1, 2, 5, 7, 20])
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_shards_cover_every_server_once_in_order(total: int, count: int) -> None:
    items = list(range(total))
    parts = [items[shard_slice(total, {"index": index, "count": count})] for index in range(1, count + 1)]
    assert [item for part in parts for item in part] == items
    assert max(map(len, parts)) - min(map(len, parts)) <= 1


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0", "-1/2", ""])
def test_a_bad_shard_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput, match="I/N"):
        parse_shard(text)


def _shard(index: int, count: int, *verdicts: str) -> object:
    doc = document(*verdicts)  # type: ignore[arg-type]
    doc["servers"][0]["target"]["display"] = f"server {index}"
    doc["shard"] = {"index": index, "count": count}
    return doc


def test_merge_puts_shards_in_order_and_tallies_each_host_across_servers() -> None:
    second, first = _shard(2, 2, "blocked", "unknown"), _shard(1, 2, "works", "degraded")
    merged = merge_reports([second, first])  # type: ignore[list-item]
    assert [server["target"]["display"] for server in merged["servers"]] == ["server 1", "server 2"]
    assert "shard" not in merged
    assert merged["hostSummary"] == [
        {"hostId": "host0", "hostLabel": "Host0", "works": 1, "unknown": 0, "degraded": 0, "blocked": 1},
        {"hostId": "host1", "hostLabel": "Host1", "works": 0, "unknown": 1, "degraded": 1, "blocked": 0},
    ]
    assert merged["notChecked"] == 0
    text = summary_text(merged)
    assert text.splitlines()[0] == "2 servers, 0 not checked"
    assert text.splitlines()[3].split() == ["Host0", "1", "0", "1", "0"]
    assert max(len(line) for line in text.splitlines()) <= 80


def test_missing_repeated_or_mixed_shards_are_refused() -> None:
    with pytest.raises(InvalidInput, match="shard 2/2 missing"):
        merge_reports([_shard(1, 2, "works")])  # type: ignore[list-item]
    with pytest.raises(InvalidInput, match="twice"):
        merge_reports([_shard(1, 2, "works"), _shard(1, 2, "works")])  # type: ignore[list-item]
    with pytest.raises(InvalidInput, match="different splits"):
        merge_reports([_shard(1, 2, "works"), _shard(2, 3, "works")])  # type: ignore[list-item]
    with pytest.raises(InvalidInput, match="nothing to merge"):
        merge_reports([])


def test_reports_that_are_not_shards_are_merged_in_the_order_given() -> None:
    first, second = document("works"), document("blocked")
    second["servers"][0]["target"]["display"] = "second"
    merged = merge_reports([second, first])
    assert [server["target"]["display"] for server in merged["servers"]] == ["second", "python -m board"]
    assert host_summary(merged["servers"])[0]["blocked"] == 1
    assert report_document(merged["servers"])["servers"] == merged["servers"]


@pytest.mark.parametrize(
    "shard",
    ["1/2", {"index": 1}, {"index": 1, "count": 10**12}, {"index": True, "count": 2}, {"index": 3, "count": 2}, None],
)
def test_a_report_whose_shard_is_not_one_check_wrote_is_refused_when_read(shard: object) -> None:
    from hostcompat.report.reader import report_from_json

    doc = document("works")
    doc["shard"] = shard  # type: ignore[typeddict-item]
    with pytest.raises(InvalidInput, match="'shard' must be"):
        report_from_json(json.dumps(doc))


def test_missing_shards_of_a_large_split_are_named_in_short() -> None:
    with pytest.raises(InvalidInput, match=r"shard 2/10000, .*11/10000, … missing") as raised:
        merge_reports([_shard(1, 10_000, "works")])  # type: ignore[list-item]
    assert len(str(raised.value)) < 300
    with pytest.raises(InvalidInput, match="more than 10000"):
        merge_reports([_shard(1, 10**12, "works")])  # type: ignore[list-item]
