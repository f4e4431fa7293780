"""Fuzzing (issue 12 [FAULTS]): hostile frames into the decoder and the link, hostile
messages into the hub's intake; nothing may escape, nothing wrong may be stored, every
refusal must name what was wrong.

1. ``--frames N`` random and mutated frames (``tests/hostile.py``: random bytes, bit flips,
   truncation, splices, COBS damage, oversize runs, well-framed frames with a recomputed
   CRC around random types and payloads) into a ``FrameDecoder`` and into a hub-end
   ``Link`` fed in random chunk sizes; outcome counts and frames/s, the median of ten
   slices, against valid result frames decoded in the same run (the baseline).
2. ``--messages N`` hostile messages through the hub's real path (base-station driver and
   adapter over an in-memory line, intake, result writer, SQLite): answers per class, the
   refusal texts, what was stored, every broken invariant; messages/s.

The model (decisions D7): the CRC-32C catches every burst up to 32 bits; for the rest,
nothing escapes as an exception and semantic validation stores nothing invalid.

Run: ``.venv/bin/python bench/fuzz.py [--frames 1000000] [--messages 100000] [--seed N]
[--mix volume|broad]``. Exit status 1 when anything escaped or an invariant broke.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)
sys.path.insert(1, str(ROOT / "tests"))

from hostile import BROAD, VOLUME, hostile_frames, run_hostile, seed_frames

from drivers.protocol.frame import BadFrame, Frame, FrameDecoder
from drivers.protocol.link import Garbage, Link, Received, Refused
from drivers.protocol.messages import DeviceKind, Hello, Result, decode_message

RESULT = Result("A", 12, 5, 14, 23, 4, "4SX", 0, "HA", 10, 1764442800000, 1)
HELLO = Hello(int(DeviceKind.HUB), "bridgehub", "fuzz")
SLICES = 10


def chunks(rng: random.Random, blob: bytes) -> list[bytes]:
    """``blob`` cut at random places (1-512 bytes), as a serial line delivers it."""
    out, k = [], 0
    while k < len(blob):
        n = rng.randint(1, 512)
        out.append(blob[k : k + n])
        k += n
    return out


def into_decoder(frames: list[bytes], counts: Counter[str]) -> tuple[float, int]:
    """Each frame into one decoder (and each decoded payload into its message type)."""
    dec, escaped = FrameDecoder(), 0
    t0 = time.perf_counter()
    for data in frames:
        try:
            for item in dec.feed(data):
                if isinstance(item, BadFrame):
                    counts[f"dropped: {item.fault.name}"] += 1
                    continue
                try:
                    decode_message(item.type, item.payload)
                    counts["decoded: a message"] += 1
                except ValueError:  # MessageError: a frame, but not a message
                    counts["decoded: refused by its type"] += 1
        except Exception as e:  # an escape: counted and shown, never hidden
            escaped += 1
            if escaped < 4:
                print(f"   ESCAPED from the decoder: {type(e).__name__}: {e}")
    return time.perf_counter() - t0, escaped


def into_link(rng: random.Random, frames: list[bytes], counts: Counter[str]) -> tuple[float, int]:
    """The frames as one stream into a hub-end link, in random chunk sizes; every message
    that needs an answer is acknowledged, as the hub does."""
    link = Link(lambda: 0.0, epoch=7, hello=lambda _address: HELLO)
    pieces, escaped = chunks(rng, b"".join(frames)), 0
    t0 = time.perf_counter()
    for data in pieces:
        try:
            for ev in link.feed(data):
                name = type(ev).__name__
                if isinstance(ev, Refused):
                    name = f"Refused {ev.code.name}"
                elif isinstance(ev, Garbage):
                    name = f"Garbage {ev.fault.name}"
                counts[name] += 1
                if isinstance(ev, Received) and ev.message.NEEDS_ACK:
                    link.ack(ev)
            link.data_to_send()
        except Exception as e:
            escaped += 1
            if escaped < 4:
                print(f"   ESCAPED from the link: {type(e).__name__}: {e}")
    return time.perf_counter() - t0, escaped


def frames_part(n: int, seed: int) -> int:
    """Part 1; the number of escapes."""
    rng = random.Random(seed)
    seeds = seed_frames(rng)
    per = max(1, n // SLICES)
    valid = [Frame(3, 7, i + 1, Result.TYPE, RESULT.payload()).encode() for i in range(per)]
    dec_counts: Counter[str] = Counter()
    link_counts: Counter[str] = Counter()
    modes: Counter[str] = Counter()
    rates: dict[str, list[float]] = {"hostile decoder": [], "hostile link": []}
    rates |= {"valid decoder": [], "valid link": []}
    escaped, done, size = 0, 0, 0
    while done < n:
        m = min(per, n - done)
        batch = []
        for mode, data in hostile_frames(rng, m, seeds):
            modes[mode] += 1
            batch.append(data)
            size += len(data)
        seconds, e1 = into_decoder(batch, dec_counts)
        rates["hostile decoder"].append(m / seconds)
        seconds, e2 = into_link(rng, batch, link_counts)
        rates["hostile link"].append(m / seconds)
        seconds, _ = into_decoder(valid, Counter())
        rates["valid decoder"].append(len(valid) / seconds)
        seconds, _ = into_link(rng, valid, Counter())
        rates["valid link"].append(len(valid) / seconds)
        escaped += e1 + e2
        done += m
    print(f"   {n:,} hostile frames ({size / 1e6:.1f} MB); modes:")
    print("      " + ", ".join(f"{k} {v:,}" for k, v in sorted(modes.items())))
    print("   decoder outcomes:")
    for k, v in sorted(dec_counts.items()):
        print(f"      {k:<36} {v:>10,}")
    print("   link events (frames fed as one stream in random chunks of 1-512 bytes):")
    for k, v in sorted(link_counts.items()):
        print(f"      {k:<36} {v:>10,}")
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"   frames/s, median of {len(rates['valid link'])} slices:")
    for part in ("decoder", "link"):
        hostile, valid_rate = med[f"hostile {part}"], med[f"valid {part}"]
        print(
            f"      {part:<8} hostile {hostile:>12,.0f}   valid result frames {valid_rate:>12,.0f}"
            f"   ratio {hostile / valid_rate:.2f}"
        )
    print(f"   escaped exceptions: {escaped}")
    return escaped


def messages_part(n: int, seed: int, mix: str) -> int:
    """Part 2; the number of broken invariants."""
    with tempfile.TemporaryDirectory() as tmp:
        weights = VOLUME if mix == "volume" else BROAD
        rep = asyncio.run(run_hostile(n, seed, Path(tmp), weights, window=4096))
    for line in rep.lines():
        print(f"   {line}")
    return len(rep.failures)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=1_000_000)
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--mix", choices=("volume", "broad"), default="volume")
    args = ap.parse_args()
    bad = 0
    if args.frames:
        print(f"1. Hostile frames into the decoder and the link (seed {args.seed})")
        bad += frames_part(args.frames, args.seed)
    if args.messages:
        print(f"\n2. Hostile messages into the hub's intake ({args.mix} mix, seed {args.seed})")
        bad += messages_part(args.messages, args.seed, args.mix)
    print(f"\n{'FAILED' if bad else 'OK'}: {bad} escaped exceptions or broken invariants")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
