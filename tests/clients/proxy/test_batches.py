"""Which requests of a client's JSON-RPC batch the proxy answers (`clients.proxy.batches`)."""

import json

from hostcompat.clients.proxy.batches import BATCH_ERROR, MAX_BATCH_REQUESTS, batch_request_ids
from hostcompat.clients.proxy.failures import INVALID_REQUEST


def test_the_requests_of_a_batch_in_order_each_once() -> None:
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 7, "result": {}},  # a response: nobody waits on the proxy for it
        {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},  # no usable id: nothing to answer it with
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        "not a message",
    ]
    assert batch_request_ids(json.dumps(batch).encode() + b"\n") == [1, "b"]


def test_no_batch_or_nothing_to_answer() -> None:
    assert batch_request_ids(b'{"jsonrpc":"2.0","id":1,"method":"ping"}') is None
    assert batch_request_ids(b"[1, 2") is None  # not JSON: an unreadable line like any other
    assert batch_request_ids(b"  []\n") == []
    assert batch_request_ids(b'[{"jsonrpc":"2.0","method":"notifications/x"}]') == []


def test_a_huge_batch_is_answered_up_to_the_cap() -> None:
    batch = [{"jsonrpc": "2.0", "id": n, "method": "ping"} for n in range(MAX_BATCH_REQUESTS + 5)]
    ids = batch_request_ids(json.dumps(batch).encode())
    assert ids == list(range(MAX_BATCH_REQUESTS))


def test_the_error_says_why_and_what_to_do() -> None:
    assert BATCH_ERROR["code"] == INVALID_REQUEST
    assert "batch" in BATCH_ERROR["message"] and "line of its own" in BATCH_ERROR["message"]
