"""A line stops when it is told to, whatever it is doing at that moment (decisions D17:
``stop()`` always closes every driver). The race checked here: the stop arrives in the same
turn of the loop as the line's close finishes; Python 3.11's ``wait_for`` then returns the
close's result and drops the cancellation, and the line's task used to run on for ever
(found when a benchmark's hub would not stop on SIGTERM).

The line is a stand-in transport: the moment of the stop, counted in turns of the loop
after the close, cannot be arranged on a real pseudo-terminal."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from drivers.base_station import BaseStationDriver
from drivers.clock.driver import ClockDriver
from drivers.line import LineError, Transport
from hub.live.oversight.supervisor import Supervisor


class ClosingLine:
    """A line that is gone at once (its read fails) and whose close finishes at once,
    asking for the stop ``turns`` turns of the loop later."""

    url = "stand-in"

    def __init__(self, stop: Callable[[], None], turns: int) -> None:
        self.stop, self.turns = stop, turns

    async def read(self) -> bytes:
        raise LineError("stand-in: unplugged")

    async def write(self, data: bytes) -> None:
        return None

    async def close(self) -> None:
        loop = asyncio.get_running_loop()

        def later(n: int) -> None:
            if n == 0:
                self.stop()
            else:
                loop.call_soon(later, n - 1)

        later(self.turns)


def opener_once(make: Callable[[], Transport]) -> Callable[[str], object]:
    opened = []

    async def opener(url: str) -> Transport:
        if opened:
            raise LineError(f"{url}: gone")
        opened.append(url)
        return make()

    return opener


async def base_station_line(turns: int) -> None:
    box: list[asyncio.Task[None]] = []
    driver = BaseStationDriver(
        "stand-in",
        opener=opener_once(lambda: ClosingLine(lambda: box[0].cancel(), turns)),  # type: ignore[arg-type]
        backoff=(0.01, 0.01),
    )
    box.append(asyncio.get_running_loop().create_task(driver.run()))
    done, _ = await asyncio.wait(box, timeout=5)
    assert done, f"the line ran on after its stop (stop {turns} turns after the close)"
    assert box[0].cancelled()


async def clock_line(turns: int) -> None:
    box: list[asyncio.Task[None]] = []
    driver = ClockDriver("stand-in", backoff=(0.01, 0.01))
    opener = opener_once(lambda: ClosingLine(lambda: box[0].cancel(), turns))
    driver._open = lambda: opener(driver.url)  # type: ignore[method-assign,assignment,return-value]
    box.append(asyncio.get_running_loop().create_task(driver.run()))
    done, _ = await asyncio.wait(box, timeout=5)
    assert done, f"the clock's line ran on after its stop (stop {turns} turns after the close)"


async def stubborn_task() -> None:
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                continue

    sup = Supervisor()
    sup.spawn("stubborn", stubborn)
    await asyncio.sleep(0)
    await asyncio.wait_for(sup.stop(within_s=0.2), 5)
    release.set()


@pytest.mark.parametrize("turns", range(6))
def test_a_base_station_line_stops_when_the_stop_comes_as_its_close_finishes(turns: int) -> None:
    asyncio.run(base_station_line(turns))


@pytest.mark.parametrize("turns", range(6))
def test_a_clock_line_stops_when_the_stop_comes_as_its_close_finishes(turns: int) -> None:
    asyncio.run(clock_line(turns))


def test_the_supervisor_stops_even_when_a_task_will_not(caplog: pytest.LogCaptureFixture) -> None:
    """A task that ignores its stop is named in the log and left: the hub still stops."""
    asyncio.run(stubborn_task())
    assert "task stubborn did not stop" in caplog.text
