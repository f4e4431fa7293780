"""Wire speed: frame encode/decode throughput against a 115,200-baud line full of result
frames (target ≥ 100×), and result→ACK round-trip latency over a real pty.

Run: ``bash dev.sh bench-wire`` (``.venv/bin/python bench/wire.py [--quick]``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from drivers.base_station import BaseStationDriver
from drivers.protocol.frame import Frame, FrameDecoder
from drivers.protocol.link import Acked, Link, Received
from drivers.protocol.messages import Outcome, Result, decode_message
from simulator.line import PtyLine

RESULT = Result("A", 12, 5, 14, 23, 4, "4SX", 0, "HA", 10, 1764442800000, 1)
LINE_BYTES_PER_S = 115_200 / 10  # 8N1: 10 bits a byte


def throughput(n: int) -> None:
    frames = [Frame(3, 7, i + 1, Result.TYPE, RESULT.payload()) for i in range(n)]
    t0 = time.perf_counter()
    wires = [Frame(3, 7, i + 1, Result.TYPE, RESULT.payload()).encode() for i in range(n)]
    enc = time.perf_counter() - t0
    blob = b"".join(wires)
    t0 = time.perf_counter()
    dec = FrameDecoder()
    got = 0
    for k in range(0, len(blob), 4096):
        for f in dec.feed(blob[k : k + 4096]):
            decode_message(f.type, f.payload)
            got += 1
    dect = time.perf_counter() - t0
    assert got == n and frames[0].encode() == wires[0]
    size = len(wires[0])
    line_rate = LINE_BYTES_PER_S / size
    print(
        f"   result frame on the wire: {size} bytes; a 115,200-baud line carries "
        f"{line_rate:,.0f} frames/s"
    )
    print(f"   encode: {n / enc:12,.0f} frames/s  ({n / enc / line_rate:,.0f}× the line)")
    print(f"   decode: {n / dect:12,.0f} frames/s  ({n / dect / line_rate:,.0f}× the line)")


async def round_trips(n: int, folder: Path) -> list[float]:
    line = PtyLine(folder / "base-1")
    driver = BaseStationDriver(str(line.path), backoff=(0.01, 0.1))
    driver.start()
    await driver.connected.wait()
    term = Link(time.monotonic, epoch=1)
    loop = asyncio.get_running_loop()
    import os

    inbox: asyncio.Queue[bytes] = asyncio.Queue()
    assert line.master is not None
    loop.add_reader(line.master, lambda: inbox.put_nowait(os.read(line.master, 65536)))

    async def hub() -> None:
        while True:
            ev = await driver.events.get()
            if isinstance(ev, Received) and ev.message.NEEDS_ACK:
                driver.ack(ev, Outcome.ACCEPTED)

    hub_task = loop.create_task(hub())
    lat = []
    for i in range(n):
        term.send(1, Result("A", 1, 1, i % 60 + 1, 1, 2, "3NT", 2, "", 9, 0, 1))
        t0 = time.perf_counter()
        os.write(line.master, term.data_to_send())
        done = False
        while not done:
            data = await asyncio.wait_for(inbox.get(), 5)
            done = any(isinstance(ev, Acked) for ev in term.feed(data))
        lat.append(time.perf_counter() - t0)
    hub_task.cancel()
    loop.remove_reader(line.master)
    await driver.stop()
    line.close()
    return lat


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    print("1. Frame throughput (result frames)")
    throughput(20_000 if args.quick else 200_000)
    print("\n2. Result → ACK round trip over a pty (driver on asyncio, ACK at once)")
    with tempfile.TemporaryDirectory() as tmp:
        lat = asyncio.run(round_trips(200 if args.quick else 1000, Path(tmp)))
    lat.sort()
    p50 = statistics.median(lat)
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(f"   {len(lat)} round trips: p50 {p50 * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms")


if __name__ == "__main__":
    main()
