"""The pipe relay's deadlines: one timer for every request in flight, always armed for the earliest."""

from typing import Any

from hostcompat.clients.proxy.pipe.deadlines import Deadlines


class Clock:
    """Enough of an event loop for `Deadlines`: a settable time and the timers asked for."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, Any]] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Any) -> "Timer":
        timer = Timer(when)
        self.timers.append((when, timer))
        return timer


class Timer:
    def __init__(self, when: float) -> None:
        self.when = when
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


def test_requests_come_due_in_order_and_the_timer_follows_the_earliest() -> None:
    clock, fired = Clock(), []
    deadlines = Deadlines(10.0, lambda: fired.append(True))
    loop: Any = clock
    deadlines.start(loop, 1)
    clock.now = 3.0
    deadlines.start(loop, "b")
    deadlines.start(loop, 3)
    assert [when for when, _ in clock.timers] == [10.0]  # one timer, for the first
    clock.now = 10.0
    assert deadlines.due(loop) == [1]
    assert [when for when, _ in clock.timers] == [10.0, 13.0]  # re-armed for "b"
    deadlines.settle(3)
    clock.now = 20.0
    assert deadlines.due(loop) == ["b"]
    assert len(deadlines) == 0 and len(clock.timers) == 2  # nothing left: no timer


def test_progress_and_a_resent_id_start_over_and_settling_forgets() -> None:
    clock = Clock()
    deadlines = Deadlines(10.0, lambda: None)
    loop: Any = clock
    deadlines.start(loop, 1)
    deadlines.start(loop, 2)
    clock.now = 5.0
    deadlines.renew(loop, 1)  # 1 now times out at 15, after 2
    deadlines.renew(loop, 99)  # not in flight: nothing
    clock.now = 12.0
    assert deadlines.due(loop) == [2]
    deadlines.start(loop, 1)  # sent again under the same id: 22
    clock.now = 16.0
    assert deadlines.due(loop) == []
    deadlines.settle(None)  # an error without an id settles nothing
    assert len(deadlines) == 1
    deadlines.cancel()
    assert clock.timers[-1][1].cancelled
    deadlines.clear()
    assert len(deadlines) == 0
