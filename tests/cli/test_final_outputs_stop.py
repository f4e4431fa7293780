"""Issue 12 [FAULTS]: the campaign's hub, stopped (SIGTERM) while the final report of
105,000 results was still being drawn, did not end within 15 s: the report ran in the
loop's default executor, which ``asyncio.run`` waits for on the way out. The final outputs
now run in a daemon thread (``hub/cli/run_final.py``); the next start writes them again."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from hub.cli.run_final import in_daemon_thread

REPORT_S = 60.0  # a report far slower than any stop may take


def test_stopping_the_hub_does_not_wait_for_a_report_still_being_drawn():
    drawing = threading.Event()
    released = threading.Event()

    def report() -> str:
        drawing.set()
        released.wait(REPORT_S)
        return "report.pdf"

    async def hub() -> None:
        writing = asyncio.ensure_future(in_daemon_thread(report, "final-outputs"))
        while not drawing.is_set():
            await asyncio.sleep(0.01)
        writing.cancel()  # the TD stops the hub

    began = time.monotonic()
    try:
        asyncio.run(hub())
        took = time.monotonic() - began
    finally:
        released.set()
    assert took < REPORT_S / 2, f"the stop waited {took:.1f} s for the report"


def test_the_outputs_or_their_failure_come_back_to_the_hub():
    async def both() -> tuple[str, str]:
        written = await in_daemon_thread(lambda: "standings.txt", "final-outputs")
        with pytest.raises(OSError) as failed:
            await in_daemon_thread(_disk_full, "final-outputs")
        return written, str(failed.value)

    assert asyncio.run(both()) == ("standings.txt", "No space left on device")


def _disk_full() -> str:
    raise OSError("No space left on device")
