import pytest

from hostcompat.errors import InvalidInput
from hostcompat.report import EXIT_FAILED, EXIT_OK, check_document, exit_code, report_document, server_entry
from tests.report.sample import document


@pytest.mark.parametrize(
    ("verdicts", "fail_on", "expected"),
    [
        (("works", "works"), "unknown", EXIT_OK),
        (("works", "unknown"), "blocked", EXIT_OK),
        (("works", "unknown"), "unknown", EXIT_FAILED),
        (("degraded",), "degraded", EXIT_FAILED),
        (("degraded",), "blocked", EXIT_OK),
        (("blocked",), "blocked", EXIT_FAILED),
        (("blocked",), "never", EXIT_OK),
    ],
)
def test_the_exit_code_follows_fail_on(verdicts: tuple[str, ...], fail_on: str, expected: int) -> None:
    assert exit_code(document(*verdicts), fail_on) == expected  # type: ignore[arg-type]  # fail_on is a parameter


def test_a_server_that_could_not_be_checked_fails_the_run_whatever_fail_on_says() -> None:
    unreachable = report_document([server_entry(target={"display": "x"}, server=None, hosts=[])])
    crashed = document("unknown", "unknown")
    crashed["servers"][0]["error"] = "the probe did not complete: the server exited (code 3) during tools/list"
    for doc in (unreachable, crashed):
        for fail_on in ("blocked", "degraded", "unknown", "never"):
            assert exit_code(doc, fail_on) == EXIT_FAILED, fail_on


def test_an_unknown_threshold_is_an_input_error() -> None:
    with pytest.raises(InvalidInput):
        exit_code(document("works"), "sometimes")  # type: ignore[arg-type]  # the wrong value is the test


def test_summary_counts_verdicts() -> None:
    assert document("works", "degraded", "degraded")["servers"][0]["summary"] == {
        "works": 1,
        "unknown": 0,
        "degraded": 2,
        "blocked": 0,
    }


def test_check_document_rejects_other_schemas() -> None:
    assert check_document(document("works"))["schema"] == "hostcompat.report/1"
    with pytest.raises(InvalidInput):
        check_document({"schema": "other/1", "servers": []})
    with pytest.raises(InvalidInput):
        check_document({"schema": "hostcompat.report/1", "servers": {}})
