"""A station that cannot be opened is reported at once, by name and reason (TD trial F10:
"the hub printed `hub running` ... and then nothing, for minutes"; the TD expected "cannot
open /dev/ttyUSB0: no such device — is the base station plugged in?"): a WARNING in the
hub's output and a director's alert, once per change and not at every retry, and once
more when the line opens.

The tests run as root in CI, where a chmod'd device opens all the same, so EACCES and
EBUSY are tested through the mapping from the transport's error (built exactly as the
serial transport raises it); ENOENT is tested with a real path that does not exist."""

from __future__ import annotations

import asyncio
import errno
import logging
import os

import pytest
import serial
from event_text import one_section_event
from hub_stub import wait_until

from drivers.base_station import BaseStationDriver
from drivers.line import LineError
from drivers.open_problem import open_problem
from drivers.transport import open_transport
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.line import PtyLine

PLUG = "cannot open {}: no such device — is the base station plugged in?"


def as_transport_raises(url: str, cause: Exception) -> LineError:
    """The error the serial transport raises: a LineError from the system's error."""
    try:
        try:
            raise cause
        except Exception as e:
            raise LineError(f"cannot open {url}: {e}") from None
    except LineError as line_error:
        return line_error


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (errno.ENOENT, "no such device — is the base station plugged in?"),
        (errno.EACCES, "permission denied — is this user in the dialout group"),
        (errno.EBUSY, "the device is busy — is another program (or another hub) using it?"),
        (errno.EAGAIN, "in use — is another program (or another hub) using it?"),
    ],
)
def test_each_reason_has_its_own_plain_words(number, words):
    """pyserial's SerialException carries the errno (ENOENT, EACCES, EBUSY; EAGAIN for
    its exclusive lock); the words say what to check."""
    url = "/dev/ttyUSB0"
    cause = serial.SerialException(number, f"could not open port {url}: [Errno {number}] x")
    text = open_problem(url, as_transport_raises(url, cause))
    assert text.startswith(f"cannot open {url}: ") and words in text


def test_a_usb_station_not_found_and_an_unknown_reason():
    """USB: the transport says "no USB device usb:0403:6001"; an error without a known
    errno keeps its own text, once prefixed."""
    usb = "usb:0403:6001"
    text = open_problem(usb, LineError("no USB device usb:0403:6001"))
    assert text == f"cannot open {usb}: no such USB device — is the base station plugged in?"
    odd = as_transport_raises("/dev/x", ValueError("baud rate 7 not supported"))
    assert open_problem("/dev/x", odd) == "cannot open /dev/x: baud rate 7 not supported"


@pytest.mark.skipif(os.geteuid() == 0, reason="root opens a chmod 000 device all the same")
def test_a_device_without_permission_is_said_so(tmp_path):
    path = tmp_path / "ttyFAKE"
    path.write_bytes(b"")
    path.chmod(0)

    async def opened() -> LineError:
        with pytest.raises(LineError) as e:
            await open_transport(str(path))
        return e.value

    assert "permission denied" in open_problem(str(path), asyncio.run(opened()))


def test_a_missing_device_is_reported_once_then_its_return(tmp_path, caplog):
    """A real path that does not exist: tried again and again (fast backoff), reported
    once, in plain words; the station plugged in (a pty appears at the path) is reported
    open again, once."""
    path = tmp_path / "ttyUSB0"
    told: list[str] = []

    async def scenario() -> None:
        driver = BaseStationDriver(str(path), backoff=(0.005, 0.01))
        driver.on_problem = told.append
        driver.start()
        try:
            await asyncio.sleep(0.3)  # dozens of tries
            assert told == [PLUG.format(path)]
            line = PtyLine(path)
            try:
                await wait_until(driver.connected.is_set, 10, "the line to open")
                assert told == [PLUG.format(path), f"base station {path} is open again"]
                assert driver.problem is None
            finally:
                await driver.stop()
                line.close()
        finally:
            await driver.stop()

    with caplog.at_level(logging.WARNING, logger="drivers.base_station"):
        asyncio.run(scenario())
    warned = [r.getMessage() for r in caplog.records if r.name == "drivers.base_station"]
    assert warned.count(PLUG.format(path)) == 1


def test_the_director_is_alerted_by_the_hub(tmp_path):
    """F10 through the hub: `run --station /dev/ttyUSB0` with no such device gives the
    director's alert in the feed (the console's alerts) at once."""
    missing = str(tmp_path / "ttyUSB0")

    async def scenario() -> list[str]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(
            one_section_event("F10", 'kind = "howell", tables = 3, boards_per_round = 2')
        )
        hub = HubService(store, eid, [missing])
        await hub.start()
        try:

            def alerts() -> list[str]:
                return [e["text"] for e in hub.feed.since(0) if e["event"] == "alert"]

            await wait_until(lambda: PLUG.format(missing) in alerts(), 10, "the alert")
            await asyncio.sleep(0.3)  # retries: no second alert
            return alerts()
        finally:
            await hub.stop()
            store.close()

    assert asyncio.run(scenario()).count(PLUG.format(missing)) == 1
