"""A serial line that sends more than the port takes at once: the rest goes out later, and
then the line is quiet. pyserial-asyncio-fast 0.16 left its writer on the loop after that,
and each turn of the loop logged AssertionError("Write buffer should not be empty"): the
fault campaign's hub wrote 44 MB of them (issue 12 [FAULTS]). A real pseudo-terminal."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from drivers.transport import SerialTransport

BIG = 1 << 20  # far more than a pty's buffer: the first write is a partial one


async def _read_all(fd: int, want: int) -> int:
    loop = asyncio.get_running_loop()
    got = 0
    done = loop.create_future()

    def readable() -> None:
        nonlocal got
        try:
            got += len(os.read(fd, 65536))
        except BlockingIOError:
            return
        if got >= want and not done.done():
            done.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await asyncio.wait_for(done, 20)
    finally:
        loop.remove_reader(fd)
    return got


def test_a_write_larger_than_the_port_takes_leaves_no_error_behind():
    async def main() -> list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        errors: list[dict[str, Any]] = []
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
        master, slave = os.openpty()
        os.set_blocking(master, False)
        line = await SerialTransport.open(os.ttyname(slave))
        try:
            reading = loop.create_task(_read_all(master, BIG))
            await asyncio.wait_for(line.write(b"x" * BIG), 20)
            assert await reading == BIG, "the far end did not get every byte"
            await asyncio.sleep(0.1)  # many turns of the loop with nothing more to write
        finally:
            await line.close()
            os.close(master)
            os.close(slave)
        return errors

    errors = asyncio.run(main())
    assert errors == [], f"the loop logged {len(errors)} errors, first: {errors[:1]}"
