"""Hostile input, shared by tests and ``bench/fuzz.py`` (issue 12 [FAULTS]).

Two generators:

- **frames**: random bytes and mutated valid frames (bit flips, truncation, splices, COBS
  damage, oversize runs, and frames with a recomputed, valid CRC around random types and
  payloads) for the decoder and the link. The model of decisions D7: the CRC-32C catches
  bursts up to 32 bits; for everything else nothing may escape as an exception, and what
  decodes is validated by its message type.
- **messages**: well-framed messages a terminal (or something pretending to be one) sends
  to the hub, each with the answer it must get: wrong sections, tables, rounds and boards,
  pairs not at the table, one pair on both sides, impossible contracts, declarers, tricks
  and leads, huge and non-UTF-8 strings, out-of-range numbers, results for a table held
  over another link (D20), stale and unknown epochs, replayed sequence numbers, resends
  and resends with other content (D21), messages only the hub or the station may send,
  log-ons to tables that do not exist. ``run_hostile`` plays them into the real hub
  (``HubService``, its base-station adapter and driver over an in-memory line, intake, the
  result writer, a real SQLite store) and checks what was answered and what was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cobs import cobs
from wire_strategies import random_message

from drivers.base_station import BaseStationDriver
from drivers.protocol import messages as wire
from drivers.protocol.codec import MessageError
from drivers.protocol.frame import CRC, HEADER, MAX_ENCODED, VERSION, Frame, FrameDecoder
from drivers.protocol.layout import REGISTRY
from hub.event.result_key import KeyVerdict, check_key
from hub.live.port.base_station import BaseStationPort
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from scoring.board import Seat
from scoring.contract import parse_contract
from scoring.deal import normalise_card, opening_leader, parse_deal

ROOT = Path(__file__).parents[1]
DATA = Path(__file__).parent / "data"

# -- frames -----------------------------------------------------------------------------------
FRAME_MODES = (
    "random",
    "bit_flips",
    "truncated",
    "spliced",
    "cobs_damage",
    "oversize",
    "crc_recomputed",
)


def seed_frames(rng: random.Random, per_type: int = 4) -> list[bytes]:
    """Valid frames of every message type with random field values, as on the wire."""
    return [
        Frame(
            rng.randrange(4),
            rng.randrange(3),
            rng.randrange(5),
            code,
            random_message(REGISTRY[code], rng).payload(),
        ).encode()
        for code in sorted(REGISTRY)
        for _ in range(per_type)
    ]


def _recrc(body: bytes) -> bytes:
    """``body`` (header and payload) with its valid CRC, COBS-encoded and delimited."""
    import crc32c

    return cobs.encode(body + CRC.pack(crc32c.crc32c(body))) + b"\x00"


def mutated_frame(rng: random.Random, seeds: list[bytes], mode: str) -> bytes:
    """One hostile frame (or run of bytes) of the given ``FRAME_MODES`` mode."""
    wire_ = bytearray(rng.choice(seeds))
    if mode == "random":
        data = bytearray(rng.randbytes(rng.randrange(1, 80)))
        return bytes(data) + (b"\x00" if rng.random() < 0.8 else b"")
    if mode == "bit_flips":
        for _ in range(rng.randrange(1, 5)):
            wire_[rng.randrange(len(wire_))] ^= 1 << rng.randrange(8)
        return bytes(wire_)
    if mode == "truncated":
        return bytes(wire_[: rng.randrange(len(wire_))]) + b"\x00"
    if mode == "spliced":
        other = rng.choice(seeds)
        return bytes(wire_[: rng.randrange(len(wire_))]) + other[rng.randrange(len(other)) :]
    if mode == "cobs_damage":  # a COBS code byte pointing elsewhere
        k = rng.randrange(len(wire_) - 1)
        wire_[k] = rng.randrange(1, 256)
        return bytes(wire_)
    if mode == "oversize":  # a run with no delimiter, longer than any frame
        return bytes(b or 1 for b in rng.randbytes(MAX_ENCODED + 8)) + b"\x00"
    if mode == "crc_recomputed":  # well-framed: random type and fields, a valid CRC
        payload = cobs.decode(bytes(wire_[:-1]))[HEADER.size : -CRC.size]
        kind = rng.randrange(4)
        if kind == 0:
            payload = rng.randbytes(rng.randrange(0, 60))
        elif kind == 1 and payload:
            payload = payload[: rng.randrange(len(payload))]
        elif kind == 2:
            payload = payload + rng.randbytes(rng.randrange(1, 4))
        elif payload:
            mixed = bytearray(payload)
            mixed[rng.randrange(len(mixed))] = rng.randrange(256)
            payload = bytes(mixed)
        mtype = rng.randrange(256) if rng.random() < 0.3 else rng.choice(sorted(REGISTRY))
        length = len(payload) if rng.random() < 0.95 else rng.randrange(0x10000)
        version = VERSION if rng.random() < 0.97 else rng.randrange(256)
        head = HEADER.pack(
            version,
            rng.randrange(8),
            rng.randrange(4),
            rng.randrange(12),
            mtype,
            length,
        )
        return _recrc(head + payload)
    raise ValueError(mode)


def hostile_frames(rng: random.Random, n: int, seeds: list[bytes] | None = None):
    """``n`` hostile frames, the modes in turn (an oversize run one in a thousand): (mode,
    bytes)."""
    seeds = seeds or seed_frames(rng)
    common = [m for m in FRAME_MODES if m != "oversize"]
    for i in range(n):
        mode = "oversize" if i % 1000 == 999 else common[i % len(common)]
        yield mode, mutated_frame(rng, seeds, mode)


# -- messages ---------------------------------------------------------------------------------
EVENT = (
    (ROOT / "examples" / "club_howell.toml")
    .read_text("utf-8")
    .replace(
        'name = "Evening"',
        'name = "Evening"\nhand_records = "realbridge_2021_online_qual_open_r2.pbn"',
    )
    .replace('travellers = "after_play"', 'travellers = "after_play"\nverification = "none"')
)
PIN = "fuzz-pin-8chars"
SECTION = "A"
STRANGER, SAME_SERIAL = 11, 12  # a terminal that holds no table; one claiming BM-1's serial
HELD_REASONS = re.compile(
    r"is not played at table|are the wrong way round|do not sit at table|"
    r"same submission, different content|a second, different result|is not in \w+'s hand"
)
BAD_RESULTS = (
    "pair_zero",
    "board_0",
    "wrong_round",
    "bad_contract",
    "bad_tricks",
    "bad_declarer",
    "bad_lead",
)
NEVER = re.compile(r"could not (take|store) (this|it) just now")  # the catch-all answers
Content = tuple[int, int, str, str | None, str | None, int | None]  # as the store keeps it


@dataclass(frozen=True, slots=True)
class Expect:
    """The answers a hostile message may get ("ACK 1", "NAK 18", ...) and, for a refusal,
    what its text must name (a regular expression)."""

    answers: frozenset[str]
    names: str = ""


def expect(*answers: str, names: str = "") -> Expect:
    return Expect(frozenset(answers), names)


@dataclass
class Device:
    """The hostile side of one terminal address: its epoch and last sequence number."""

    address: int
    serial: str
    epoch: int
    seq: int = 0
    table: int | None = None
    delivered: int = 0  # the last sequence number the hub's link took (not refused)


@dataclass
class Sent:
    kind: str
    expect: Expect
    content: Content | None = None  # a result's content as the store would keep it
    key: tuple[str, int, int, int] | None = None
    message: Any = None
    device: Device | None = None
    seq: int = 0
    answer: tuple[str, str] | None = None  # the verdict ("NAK 18") and its text


@dataclass
class HostileReport:
    """What a run of hostile messages did: answers per class, refusal texts, what the store
    holds and every broken invariant (``failures``: must be empty)."""

    messages: int = 0
    seconds: float = 0.0
    by_class: Counter[tuple[str, str]] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    stored: Counter[str] = field(default_factory=Counter)
    errors_logged: int = 0
    restarts: int = 0
    settle_s: float = 0.0  # after the last answer, until the audit trail is written
    audit_rows: int = 0

    def fail(self, text: str) -> None:
        if len(self.failures) < 50:
            self.failures.append(text)

    @property
    def rate(self) -> float:
        return self.messages / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        """The report for people: per class, then the refusal texts and the store."""
        out = [
            f"{self.messages:,} hostile messages answered in {self.seconds:.1f} s "
            f"({self.rate:,.0f}/s); {self.settle_s:.1f} s more until the hub's audit trail "
            f"was written ({self.audit_rows:,} rows)"
        ]
        classes = sorted({k for k, _ in self.by_class})
        for k in classes:
            got = ", ".join(f"{a} ×{n}" for (c, a), n in sorted(self.by_class.items()) if c == k)
            out.append(f"  {k:<26} {got}")
        out.append(f"refusal texts ({len(self.refusals)} distinct, digits as N):")
        out += [f"  {n:>7}  {t}" for t, n in self.refusals.most_common()]
        out.append("stored: " + ", ".join(f"{k} {n}" for k, n in sorted(self.stored.items())))
        out.append(f"errors logged {self.errors_logged}, supervised restarts {self.restarts}")
        out.append(f"failures: {len(self.failures)}")
        out += [f"  {f}" for f in self.failures]
        return out


@functools.lru_cache(maxsize=8192)
def _norm(text: str) -> str:
    """A refusal text with what varies (numbers, hostile strings) folded, for counting."""
    text = re.sub(r"log on to table .* first", "log on to table <T> first", text, flags=re.S)
    text = re.sub(r"section .* is not in this event.*", "section <S> is not in this event", text)
    text = re.sub(r"(lead|contract|serial|level) '.*?'(?= |:|$)", r"\1 <X>", text, flags=re.S)
    text = re.sub(r"(contract|lead) \".*?\"", r"\1 <X>", text, flags=re.S)
    text = re.sub(r"0x[0-9A-F]{2}", "0xNN", text)
    return re.sub(r"\d+", "N", text)[:140]


class MemoryLine:
    """An in-memory line between the hub's driver and the hostile terminals: what the
    terminals write waits in ``inbox``; what the hub writes goes to ``on_write``."""

    url = "memory://hostile"

    def __init__(self, on_write: Callable[[bytes], None]) -> None:
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.on_write = on_write

    async def read(self) -> bytes:
        parts = [await self.inbox.get()]
        while not self.inbox.empty() and len(parts) < 64:
            parts.append(self.inbox.get_nowait())
        return b"".join(parts)

    async def write(self, data: bytes) -> None:
        self.on_write(data)

    async def close(self) -> None:
        return None


class ErrorLog(logging.Handler):
    """Counts what the hub logs at ERROR (an exception that reached a catch-all)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _content(ns: int, ew: int, contract: str, declarer: int, lead: str, tricks: int) -> Content:
    """What the store keeps of a valid result (the contract and lead in their canonical
    forms; no declarer, lead or tricks without a contract)."""
    parsed = parse_contract(contract)
    if parsed is None:
        return (ns, ew, "PASS", None, None, None)
    card = normalise_card(lead) if lead else None
    return (ns, ew, str(parsed), "NESW"[declarer], card, tricks)


JUNK = "AZ09 -+.#%éß€😀\t"


class HostileRoom:
    """The real hub (``HubService``: the base-station adapter and driver over a
    ``MemoryLine``, intake, the result writer, SQLite) and the hostile terminals around it.
    On one asyncio loop; ``run_hostile`` drives it."""

    def __init__(self, folder: Path, seed: int, window: int = 256) -> None:
        self.rng = random.Random(seed)
        self.folder, self.window = folder, window
        self.pending: dict[tuple[int, int, int], Sent] = {}
        self.report = HostileReport()
        self.devices: dict[int, Device] = {}
        self.sent_legit: dict[tuple[str, int, int, int], list[Content]] = {}  # sent per key
        self.revision: dict[tuple[str, int, int, int], int] = {}
        self.holdable: dict[tuple[str, int, int, int], list[Content]] = {}
        Submission = tuple[str, tuple[str, int, int, int], int]  # serial, key, revision
        self.contents: dict[Submission, set[Content]] = {}  # what each submission carried
        self.answered: list[Sent] = []  # legit results answered, for resends and replays
        self.answers = Counter[str]()
        self.no_plays = 0
        self.fake_seq = 1_000_000
        self.decoder = FrameDecoder()
        self.line = MemoryLine(self._heard)
        self.progress = asyncio.Event()
        self.errors = ErrorLog()

    # -- the hub ----------------------------------------------------------------------------
    async def start(self) -> None:
        self.store = Store.open(f"sqlite:///{self.folder / 'hostile.db'}")
        self.event_id = self.store.create_event(EVENT, base_dir=DATA)
        self.now = [1_000_000.0]
        self.hub = HubService(self.store, self.event_id, [], clock=lambda: self.now[0], td_pin=PIN)

        async def opener(url: str) -> MemoryLine:
            return self.line

        driver = BaseStationDriver(self.line.url, opener=opener, silence_s=3600)
        self.hub.ports = [BaseStationPort(driver, "station-0")]
        await self.hub.start()
        self.movement = self.hub.sections[SECTION].movement
        self.deals = {b: d for (s, b), d in self.hub.intake.deals.items() if s == SECTION}
        self.tables = sorted(self.movement.tables(SECTION))
        self.rows = {
            (t, r): self.movement.row(SECTION, t, r)
            for t in self.tables
            for r in range(1, self.movement.rounds + 1)
        }
        self.rows = {k: v for k, v in self.rows.items() if v is not None}
        self.keys = [(SECTION, t, r, b) for (t, r), row in self.rows.items() for b in row.boards]
        erase_only = {(SECTION, t, r, row.boards[-1]) for (t, r), row in self.rows.items()}
        self.erase_keys = sorted(erase_only)
        self.keys = [k for k in self.keys if k not in erase_only]
        self.boards = sorted({b for *_, b in self.keys} | {k[3] for k in self.erase_keys})
        self.keys_of = {t: [k for k in self.keys if k[1] == t] for t in self.tables}
        self.hands = {b: parse_deal(d) for b, d in self.deals.items()}
        hub_only = [c for c in REGISTRY.values() if c.DIRECTION == "hub → terminal" and c.NEEDS_ACK]
        self.hub_messages = [random_message(c, self.rng) for c in hub_only for _ in range(20)]

    # -- the line ---------------------------------------------------------------------------
    def _heard(self, data: bytes) -> None:
        """What the hub wrote: answers are matched to what was sent; its own messages are
        acknowledged, as a terminal does."""
        for item in self.decoder.feed(data):
            if not isinstance(item, Frame):
                self.report.fail(f"the hub sent a bad frame: {item}")
                continue
            try:
                msg = wire.decode_message(item.type, item.payload)
            except MessageError as e:
                self.report.fail(f"the hub sent a message that does not decode: {e}")
                continue
            if isinstance(msg, wire.Ack | wire.Nak):
                self._answered(item.terminal, msg)
            elif item.seq and msg.NEEDS_ACK:
                dev = self.devices.get(item.terminal)
                epoch = dev.epoch if dev else 1
                ack = wire.Ack(item.epoch, item.seq, 0, "")
                self.line.inbox.put_nowait(
                    Frame(item.terminal, epoch, 0, 1, ack.payload()).encode()
                )

    def _answered(self, address: int, msg: wire.Ack | wire.Nak) -> None:
        key = (address, msg.acked_epoch, msg.acked_seq)
        sent = self.pending.pop(key, None)
        if sent is None:  # the hub never answers our ACKs: this one was answered before
            self.report.fail(f"answered twice or never sent: {key} {msg!r:.200}")
            return
        verdict = f"ACK {msg.outcome}" if isinstance(msg, wire.Ack) else f"NAK {msg.code}"
        sent.answer = (verdict, msg.text)
        self.report.by_class[(sent.kind, verdict)] += 1
        self.answers[verdict] += 1
        if verdict not in sent.expect.answers:
            self.report.fail(
                f"{sent.kind}: expected {sorted(sent.expect.answers)}, got {verdict} "
                f"{msg.text!r} for {sent.message!r:.200}"
            )
        if isinstance(msg, wire.Nak):
            self.report.refusals[f"NAK {msg.code}: {_norm(msg.text)}"] += 1
            if NEVER.search(msg.text) or not msg.text.strip():
                self.report.fail(f"{sent.kind}: a refusal that names nothing: {msg.text!r}")
            elif sent.expect.names and not re.search(sent.expect.names, msg.text, re.I | re.S):
                self.report.fail(
                    f"{sent.kind}: refusal {msg.text!r:.200} does not name /{sent.expect.names}/"
                )
        if sent.kind == "legit" and verdict == "ACK 1":
            self.answered.append(sent)
        if sent.kind == "no_play" and verdict == "ACK 1":
            self.no_plays += 1
        self.progress.set()

    def send(
        self,
        sent: Sent,
        dev: Device,
        *,
        mtype: int | None = None,
        payload: bytes | None = None,
        epoch: int | None = None,
        seq: int | None = None,
    ) -> None:
        """Frame ``sent.message`` (or a raw type and payload) from ``dev``; by default the
        device's epoch and its next sequence number."""
        if seq is None:
            dev.seq += 1
            seq = dev.seq
        epoch = dev.epoch if epoch is None else epoch
        mtype = sent.message.TYPE if mtype is None else mtype
        payload = sent.message.payload() if payload is None else payload
        sent.device, sent.seq = dev, seq
        if epoch == dev.epoch and not {"NAK 1", "NAK 2", "NAK 5"} & sent.expect.answers:
            dev.delivered = max(dev.delivered, seq)
        self.pending[(dev.address, epoch, seq)] = sent
        self.line.inbox.put_nowait(Frame(dev.address, epoch, seq, mtype, payload).encode())
        self.report.messages += 1

    async def drain(self, limit: int, timeout: float = 60.0) -> None:
        """Wait until at most ``limit`` messages are unanswered (bounded: a message the hub
        never answers is a failure, named)."""
        end = time.monotonic() + timeout
        while len(self.pending) > limit:
            self.progress.clear()
            left = end - time.monotonic()
            if left <= 0:
                kinds = Counter(s.kind for s in self.pending.values())
                raise AssertionError(f"no answer in {timeout:.0f} s to {dict(kinds)}")
            try:
                await asyncio.wait_for(self.progress.wait(), left)
            except TimeoutError:
                continue

    async def seat_terminals(self) -> None:
        """Each table's terminal says HELLO and logs on; a stranger and a terminal with
        BM-1's serial on another address say HELLO (their log-ons are hostile messages)."""
        for t in self.tables:
            self.devices[t] = Device(t, f"BM-{t}", 10_000 + t, table=t)
        self.devices[STRANGER] = Device(STRANGER, "BM-99", 20_000)
        self.devices[SAME_SERIAL] = Device(SAME_SERIAL, "BM-1", 30_000)
        for dev in self.devices.values():
            hello = wire.Hello(int(wire.DeviceKind.TERMINAL), dev.serial, "fuzz")
            self.send(Sent("hello", expect("ACK 0"), message=hello), dev)
            if dev.table is not None:
                logon = wire.Logon(dev.serial, SECTION, dev.table)
                self.send(Sent("logon", expect("ACK 0"), message=logon), dev)
        await self.drain(0)

    # -- the generator ----------------------------------------------------------------------
    def table_dev(self) -> Device:
        return self.devices[self.rng.choice(self.tables)]

    def valid_play(self, board: int) -> tuple[str, int, str, int]:
        """A valid contract, declarer, lead (fitting the hand records, or none) and tricks."""
        rng = self.rng
        strain = rng.choice(("C", "D", "H", "S", "NT"))
        contract = f"{rng.randint(1, 7)}{strain}{rng.choice(('', '', 'X', 'XX'))}"
        declarer = rng.randrange(4)
        lead = ""
        hands = self.hands.get(board)
        if hands is not None and rng.random() < 0.7:
            lead = rng.choice(sorted(hands[opening_leader(Seat(declarer))]))
        return contract, declarer, lead, rng.randint(0, 13)

    def result(
        self, dev: Device, key: tuple[str, int, int, int], ns: int, ew: int, rev: int, **kw: Any
    ) -> wire.Result:
        contract, declarer, lead, tricks = self.valid_play(key[3])
        values = {"contract": contract, "declarer": declarer, "lead": lead, "tricks": tricks}
        values |= kw
        s, t, r, b = key
        return wire.Result(
            s,
            t,
            r,
            b,
            ns,
            ew,
            values["contract"],
            values["declarer"],
            values["lead"],
            values["tricks"],
            self.rng.randrange(1 << 40),
            rev,
        )

    def own_key(self) -> tuple[Device, tuple[str, int, int, int]]:
        dev = self.table_dev()
        return dev, self.rng.choice(self.keys_of[dev.table or 0])

    def pairs(self, key: tuple[str, int, int, int]) -> tuple[int, int]:
        row = self.rows[(key[1], key[2])]
        return row.ns_pair, row.ew_pair

    def junk(self, size: int | None = None) -> str:
        """Text a terminal should never send: odd characters, up to 255 bytes."""
        n = self.rng.choice((0, 1, 3, 8, 40, 255)) if size is None else size
        text = "".join(self.rng.choices(JUNK, k=n))
        return text.encode()[:255].decode("utf-8", errors="ignore")

    # one method per class: each sends one message and says what it must get
    def legit(self) -> None:
        dev, key = self.own_key()
        rev = self.revision.get(key, 0) + 1
        if rev > 199:  # the key has had its corrections: a resend instead
            return self.resend()
        self.revision[key] = rev
        msg = self.result(dev, key, *self.pairs(key), rev)
        content = _content(
            msg.ns_pair, msg.ew_pair, msg.contract, msg.declarer, msg.lead, msg.tricks
        )
        self.sent_legit.setdefault(key, []).append(content)
        self.contents.setdefault((dev.serial, key, rev), set()).add(content)
        self.send(Sent("legit", expect("ACK 1"), content, key, msg), dev)

    def no_play(self) -> None:
        dev, key = self.own_key()
        rev = self.revision.get(key, 0) + 1
        if rev > 199:
            return self.resend()
        self.revision[key] = rev
        msg = self.result(dev, key, *self.pairs(key), rev, contract="", declarer=255, tricks=255)
        self.send(Sent("no_play", expect("ACK 1", names=""), None, key, msg), dev)

    def resend(self) -> None:
        """D21: a result sent again as a new message, the same content: a duplicate."""
        if not self.answered:
            return self.legit()
        old = self.rng.choice(self.answered)
        assert old.device is not None
        self.send(Sent("resend", expect("ACK 3"), old.content, old.key, old.message), old.device)

    def resend_other_content(self) -> None:
        """D21: the same submission (terminal, key, revision) with other content: held."""
        if not self.answered:
            return self.legit()
        old = self.rng.choice(self.answered)
        assert old.device is not None and old.key is not None
        seen = self.contents.setdefault((old.device.serial, old.key, old.message.revision), set())
        for _ in range(10):
            msg = self.result(
                old.device, old.key, old.message.ns_pair, old.message.ew_pair, old.message.revision
            )
            content = _content(
                msg.ns_pair, msg.ew_pair, msg.contract, msg.declarer, msg.lead, msg.tricks
            )
            if content not in seen:
                break
        else:
            return self.legit()
        seen.add(content)
        self.holdable.setdefault(old.key, []).append(content)
        self.send(Sent("resend_other_content", expect("ACK 2"), content, old.key, msg), old.device)

    def held(self, kind: str, key: tuple[str, int, int, int], ns: int, ew: int, **kw: Any) -> None:
        dev = self.devices[key[1]]
        msg = self.result(dev, key, ns, ew, self.rng.randint(200, 255), **kw)
        content = _content(ns, ew, msg.contract, msg.declarer, msg.lead, msg.tricks)
        seen = self.contents.setdefault((dev.serial, key, msg.revision), set())
        again = content in seen  # the same submission and content again: a duplicate (D21)
        seen.add(content)
        self.holdable.setdefault(key, []).append(content)
        answers = ("ACK 3",) if again else ("ACK 2",)
        self.send(Sent(kind, expect(*answers), content, key, msg), dev)

    def wrong_board(self) -> None:
        _dev, key = self.own_key()
        row = self.rows[(key[1], key[2])]
        board = self.rng.choice(
            [b for b in self.boards if b not in row.boards]
            + [65535, self.rng.randrange(1, 1 << 16)]
        )
        if board in row.boards:
            board = 65535
        self.held("wrong_board", (key[0], key[1], key[2], board), *self.pairs(key))

    def wrong_pairs(self) -> None:
        _dev, key = self.own_key()
        ns, ew = self.pairs(key)
        kind = self.rng.choice(("pairs_swapped", "pairs_not_at_table", "one_pair_both_sides"))
        if kind == "pairs_swapped":
            ns, ew = ew, ns
        elif kind == "one_pair_both_sides":
            ns = ew = self.rng.choice((ns, ew, self.rng.randint(1, 65535)))
        else:
            while (ns, ew) in (self.pairs(key), self.pairs(key)[::-1]):
                ns, ew = self.rng.randint(1, 12), self.rng.choice((self.rng.randint(1, 12), 65535))
        self.held(kind, key, ns, ew)

    def misfit_lead(self) -> None:
        _dev, key = self.own_key()
        hands = self.hands.get(key[3])
        if hands is None:
            return self.wrong_board()
        declarer = self.rng.randrange(4)
        leader = opening_leader(Seat(declarer))
        other = self.rng.choice([s for s in Seat if s is not leader])
        lead = self.rng.choice(sorted(hands[other]))
        self.held("misfit_lead", key, *self.pairs(key), declarer=declarer, lead=lead)

    def refused(self, kind: str, code: int, names: str, dev: Device, msg: Any, **kw: Any) -> None:
        self.send(Sent(kind, expect(f"NAK {code}", names=names), message=msg), dev, **kw)

    def bad_result(self) -> None:
        """A result that cannot be scored, or whose key or pairs are not in the movement."""
        dev, key = self.own_key()
        ns, ew = self.pairs(key)
        rev = self.rng.randint(200, 255)
        rng = self.rng
        kind = rng.choice(BAD_RESULTS)
        if kind == "board_0":  # no such board: refused (a held board 0 broke the views)
            msg = self.result(dev, (key[0], key[1], key[2], 0), ns, ew, rev)
            return self.refused(kind, 18, r"board 0 is not a board number", dev, msg)
        if kind == "pair_zero":
            ns, ew = rng.choice(((0, ew), (ns, 0), (0, 0)))
            msg = self.result(dev, key, ns, ew, rev)
            return self.refused(kind, 19, r"pair 0", dev, msg)
        if kind == "wrong_round":
            rnd = rng.choice((0, self.movement.rounds + 1, rng.randint(10, 65535)))
            msg = self.result(dev, (key[0], key[1], rnd, key[3]), ns, ew, rev)
            return self.refused(kind, 19, rf"round {rnd} is not in the movement", dev, msg)
        if kind == "bad_contract":
            while True:
                text = (
                    rng.choice(("8S", "0NT", "4Z", "XX", "4SXXX", "7NTX X", "PASSX", "4"))
                    if rng.random() < 0.5
                    else self.junk()
                )
                if not text.strip():
                    continue
                try:
                    parse_contract(text)
                except Exception:
                    break
            msg = self.result(dev, key, ns, ew, rev, contract=text)
            return self.refused(kind, 18, r"contract|level|strain|double|not a|bid", dev, msg)
        if kind == "bad_tricks":
            msg = self.result(dev, key, ns, ew, rev, tricks=rng.randint(14, 255))
            return self.refused(kind, 18, r"tricks", dev, msg)
        if kind == "bad_declarer":
            msg = self.result(dev, key, ns, ew, rev, declarer=rng.randint(4, 255))
            return self.refused(kind, 18, r"declarer", dev, msg)
        lead = rng.choice(("ZZ", "H1", "S11", "10", "HAA", self.junk(rng.randint(3, 255))))
        msg = self.result(dev, key, ns, ew, rev, lead=lead, contract="3NT", declarer=0, tricks=9)
        return self.refused(kind, 18, r"lead", dev, msg)

    def not_holder(self) -> None:
        """D20: results and table messages for a table this link does not hold."""
        rng = self.rng
        dev = rng.choice([self.table_dev(), self.devices[STRANGER], self.devices[SAME_SERIAL]])
        key = rng.choice(self.keys)
        if key[1] == dev.table:
            key = next(k for k in self.keys if k[1] != dev.table)
        section, table = key[0], key[1]
        kind = rng.choice(("other_table", "wrong_section", "no_such_table"))
        if kind == "wrong_section":
            section = rng.choice(("B", "", "a", self.junk(rng.choice((2, 40, 255)))))
        elif kind == "no_such_table":
            table = rng.choice((0, max(self.tables) + 1, 65535, rng.randrange(1 << 16)))
            if table in self.tables:
                table = 0
        s, t, r, b = section, table, key[2], key[3]
        what = rng.randrange(7)
        msg: Any
        if what == 6:  # D20: a TD call names the table too (it was open to any link)
            msg = wire.TDCall(s, t, r, rng.randrange(6), self.junk())
        elif what == 0:
            msg = wire.Verify(s, t, r, b, rng.randrange(2))
        elif what == 1:
            msg = wire.Erase(s, t, r, b, rng.randrange(256))
        elif what == 2:
            msg = wire.RoundStarted(s, t, r, rng.randrange(1 << 40))
        elif what == 3:
            msg = wire.PlayerNumber(s, t, r, rng.randrange(4), "1001")
        else:
            msg = self.result(dev, (s, t, r, b), *self.pairs(key), rng.randint(1, 255))
        who = "stranger" if dev.table is None else "holder"
        self.refused(f"{kind}_{who}", 16, r"log on to table|taken over", dev, msg)

    def bad_frame_content(self) -> None:
        """Well-framed, valid CRC, but the payload is not the type's: bad UTF-8, cut short,
        bytes left over, a type no message has."""
        dev, key = self.own_key()
        msg = self.result(dev, key, *self.pairs(key), self.rng.randint(200, 255))
        payload = msg.payload()
        kind = self.rng.choice(("non_utf8", "payload_short", "payload_long", "unknown_type"))
        if kind == "non_utf8":  # the section's text, one byte made invalid
            bad = bytes([1, self.rng.choice((0x80, 0xC3, 0xFF, 0xED))]) + payload[2:]
            return self.refused(kind, 1, r"not valid UTF-8", dev, msg, payload=bad)
        if kind == "payload_short":
            cut = payload[: self.rng.randrange(len(payload))]
            return self.refused(kind, 1, r"payload ends", dev, msg, payload=cut)
        if kind == "payload_long":
            more = payload + self.rng.randbytes(self.rng.randint(1, 40))
            return self.refused(kind, 1, r"left over", dev, msg, payload=more)
        mtype = self.rng.choice([c for c in range(256) if c not in REGISTRY])
        self.refused(kind, 2, r"unknown message type", dev, msg, mtype=mtype)

    def not_from_a_terminal(self) -> None:
        """Messages only the hub (to a terminal) or the station (at address 0) sends."""
        dev = self.rng.choice(list(self.devices.values()))
        rng = self.rng
        if rng.random() < 0.7:
            return self.refused("hub_only", 20, r"hub", dev, rng.choice(self.hub_messages))
        msg = rng.choice(
            (
                wire.TerminalJoined(rng.randint(1, 65535), "BM-X"),
                wire.TerminalLeft(1, rng.randrange(3)),
            )
        )
        self.refused("station_only", 20, r"station", dev, msg)

    def epochs_and_replays(self) -> None:
        """Stale and unknown epochs, replayed sequence numbers (the link refuses them)."""
        dev, key = self.own_key()
        msg = self.result(dev, key, *self.pairs(key), self.rng.randint(200, 255))
        self.fake_seq += 1
        kind = self.rng.choice(("stale_epoch", "unknown_epoch", "replay"))
        if kind == "stale_epoch":
            epoch = self.rng.randrange(dev.epoch)
            return self.refused(
                kind, 4, r"epoch \d+ is older", dev, msg, epoch=epoch, seq=self.fake_seq
            )
        if kind == "unknown_epoch":
            epoch = self.rng.randint(dev.epoch + 1, 0xFFFFFFFF)
            return self.refused(
                kind, 3, r"must start with HELLO", dev, msg, epoch=epoch, seq=self.fake_seq
            )
        olds = [  # answered, and not being replayed already (one answer a key at a time)
            s
            for s in self.answered[-200:]
            if s.device is dev
            and s.seq < dev.delivered
            and (dev.address, dev.epoch, s.seq) not in self.pending
        ]
        if not olds:
            return self.refused("unknown_type", 2, r"unknown", dev, msg, mtype=0xEE)
        old = self.rng.choice(olds)
        self.refused(
            kind, 5, rf"sequence {old.seq} was already used", dev, old.message, seq=old.seq
        )

    def logons(self) -> None:
        """Log-ons to tables that do not exist, to a held table, with a wrong PIN, with a
        serial no store keeps."""
        rng = self.rng
        dev = rng.choice([self.devices[STRANGER], self.devices[SAME_SERIAL]])
        kind = rng.choice(
            (
                "logon_no_table",
                "logon_no_section",
                "logon_held",
                "logon_wrong_pin",
                "logon_bad_serial",
            )
        )
        table = rng.choice(self.tables)
        if kind == "logon_no_table":
            table = rng.choice((0, max(self.tables) + 1, 65535))
            msg = wire.Logon(dev.serial, SECTION, table)
            return self.refused(kind, 19, rf"has no table {table}", dev, msg)
        if kind == "logon_no_section":
            section = rng.choice(("B", "", self.junk(rng.choice((1, 40, 255)))))
            if section == SECTION:
                section = "Z"
            return self.refused(
                kind, 19, r"is not in this event", dev, wire.Logon(dev.serial, section, table)
            )
        if kind == "logon_held":
            return self.refused(
                kind, 17, rf"table A{table} is held", dev, wire.Logon(dev.serial, SECTION, table)
            )
        if kind == "logon_wrong_pin":
            msg = wire.Logon(
                dev.serial, SECTION, table, td_pin=self.junk(rng.randint(1, 30)) or "x"
            )
            return self.refused(kind, 20, r"PIN", dev, msg)
        serial = rng.choice(("X" * rng.randint(65, 255), "BM\x00" + "1", "BM\x07", "\x1b[2J"))
        self.refused(kind, 20, r"serial", dev, wire.Logon(serial, SECTION, table))

    def erase_refused(self) -> None:
        """A table erases a board that has no result (or of a round that is over)."""
        key = self.rng.choice(self.erase_keys)
        dev = self.devices[key[1]]
        msg = wire.Erase(*key, self.rng.randrange(256))
        self.refused("erase_refused", 20, r"no result to erase|is over at", dev, msg)

    def own_noise(self) -> None:
        """Odd but harmless messages about the table's own play, answered ACK 0 (a real
        terminal sends them: ``hub/live/tables/table_checks.py``): a VERIFY or BOARD_STARTED for a
        board the table does not play (its result is held, D9), a VERIFY or ROUND_STARTED
        for a round already started, a member number for any round of the movement."""
        dev, key = self.own_key()
        rng = self.rng
        s, t, _, b = key
        now = self.hub.rounds.current(SECTION)  # rounds only move on: still started later
        r = rng.randint(1, now)
        played = self.rows[(t, r)].boards if (t, r) in self.rows else ()
        other = rng.choice([x for x in self.boards if x not in played] + [65535])
        msg = rng.choice(
            (
                wire.Verify(s, t, r, rng.choice((b, other)), rng.randrange(2)),
                wire.RoundStarted(s, t, r, rng.randrange(1 << 64)),
                wire.BoardStarted(s, t, r, rng.choice((b, other)), rng.randrange(1 << 64)),
            )
        )
        if rng.random() < 0.05:  # stored for the pair at that seat: a store write each
            number = "".join(rng.choices("0123456789", k=rng.randint(1, 8)))
            msg = wire.PlayerNumber(
                s, t, rng.randint(1, self.movement.rounds), rng.randrange(4), number
            )
        self.send(Sent("own_noise", expect("ACK 0"), message=msg), dev)

    def bad_table_message(self) -> None:
        """Issue 12 / D9: the holder's VERIFY, ROUND_STARTED, BOARD_STARTED or PLAYER_NUMBER
        naming a round the movement has not, board 0, a seat past W, a member number that
        cannot be printed, or play started in a round not started yet: refused, naming what
        is wrong (they were answered ACK 0 and changed nothing, or set a round's first
        action early)."""
        dev, key = self.own_key()
        rng = self.rng
        s, t, r, b = key
        rounds, now = self.movement.rounds, self.hub.rounds.current(SECTION)
        kind = rng.choice(("no_such_round", "at_board_0", "bad_seat", "bad_number", "not_started"))
        if kind == "not_started" and now >= rounds:
            kind = "no_such_round"
        if kind == "no_such_round":
            r = rng.choice((0, rounds + 1, 65535, rng.randint(rounds + 1, 65535)))
            msg = rng.choice(
                (
                    wire.Verify(s, t, r, b, 1),
                    wire.RoundStarted(s, t, r, 0),
                    wire.BoardStarted(s, t, r, b, 0),
                    wire.PlayerNumber(s, t, r, rng.randrange(4), "1001"),
                )
            )
            return self.refused(kind, 19, rf"round {r} is not in the movement", dev, msg)
        if kind == "at_board_0":
            r = rng.randint(1, now)
            msg = rng.choice((wire.Verify(s, t, r, 0, 1), wire.BoardStarted(s, t, r, 0, 0)))
            return self.refused(kind, 19, r"board 0 is not in the movement", dev, msg)
        if kind == "bad_seat":
            msg = wire.PlayerNumber(s, t, r, rng.randint(4, 255), "1001")
            return self.refused(kind, 20, r"is not a seat", dev, msg)
        if kind == "bad_number":
            number = rng.choice(("\x00", "\x1b[2J", "12\t34", "\x7f")) + self.junk(3)
            msg = wire.PlayerNumber(s, t, r, rng.randrange(4), number)
            return self.refused(kind, 20, r"cannot be printed", dev, msg)
        later = rng.randint(now + 1, rounds)  # unless the round moves on before it is handled
        msg = rng.choice((wire.BoardStarted(s, t, later, b, 0), wire.RoundStarted(s, t, later, 0)))
        sent = Sent(kind, expect("NAK 20", "ACK 0", names=rf"round {later} has not started"))
        sent.message = msg
        self.send(sent, dev)

    async def play(self, n: int, mix: dict[str, float]) -> None:
        """``n`` hostile messages (after the terminals are seated), classes weighted by
        ``mix``, then every answer."""
        names, weights = list(mix), list(mix.values())
        for _ in range(n):
            if len(self.pending) >= self.window:
                await self.drain(self.window // 2)
            getattr(self, self.rng.choices(names, weights)[0])()
        await self.drain(0)


BROAD = {  # every class often: a third of the messages reach the store
    "legit": 22,
    "no_play": 1,
    "resend": 6,
    "resend_other_content": 4,
    "wrong_board": 4,
    "wrong_pairs": 4,
    "misfit_lead": 3,
    "bad_result": 14,
    "not_holder": 10,
    "bad_frame_content": 8,
    "not_from_a_terminal": 6,
    "epochs_and_replays": 8,
    "logons": 6,
    "erase_refused": 2,
    "own_noise": 2,
    "bad_table_message": 4,
}
VOLUME = BROAD | {  # for 100,000 and more: about 0.6 % reach the store (a held result
    # costs the hub's result writer a read of the section's live results: bench/fuzz.py)
    "legit": 0.3,
    "no_play": 0.01,
    "resend": 0.1,
    "resend_other_content": 0.02,
    "wrong_board": 0.015,
    "wrong_pairs": 0.015,
    "misfit_lead": 0.012,
}


# -- the checks -------------------------------------------------------------------------------
def check_store(room: HostileRoom) -> None:
    """Nothing wrong stored: every accepted result is a valid one the table's holder sent
    for that key, and the key's live result is the last one sent; every held result is one
    sent as irregular but plausible (D9, D21, a lead), with its reason audited; nothing
    else is stored (no TD call, no member number a terminal could not key); every result
    a terminal was told is stored is there."""
    rep, store, eid = room.report, room.store, room.event_id
    rows = store.results(eid)
    audit_held = {
        a["detail"]["result"]: a["detail"].get("reason") for a in store.audit_log(eid, "held")
    }
    for r in rows:
        key = (r.section, r.table, r.round, r.board)
        content: Content = (r.ns_pair, r.ew_pair, r.contract or "", r.declarer, r.lead, r.tricks)
        rep.stored[r.status] += 1
        if r.status == "accepted":
            ok = check_key(room.movement, *key, r.ns_pair, r.ew_pair).verdict is KeyVerdict.OK
            if not ok or content not in room.sent_legit.get(key, []):
                rep.fail(f"stored accepted but never sent valid for {key}: {content}")
            if r.entered_by != f"BM-{r.table}":
                rep.fail(f"result for table {r.table} stored as entered by {r.entered_by}")
        elif r.status == "held":
            if content not in room.holdable.get(key, []):
                rep.fail(f"stored held but never sent as irregular for {key}: {content}")
            reason = audit_held.get(r.id)
            if reason is None or not HELD_REASONS.search(reason):
                rep.fail(f"held result {r.id} without a specific reason: {reason!r}")
        else:
            rep.fail(f"result {r.id} stored with status {r.status}")
    said = room.answers
    results_said = sum(n for (k, a), n in rep.by_class.items() if a == "ACK 1" and k != "no_play")
    if rep.stored["accepted"] != results_said:
        rep.fail(f"{results_said} results answered accepted, {rep.stored['accepted']} stored")
    if rep.stored["held"] != said["ACK 2"]:
        rep.fail(f"{said['ACK 2']} results answered held, {rep.stored['held']} stored held")
    plays = store.audit_log(eid, "no_play")
    if len(plays) != room.no_plays:
        rep.fail(f"{room.no_plays} NO PLAYs answered accepted, {len(plays)} recorded")
    calls = store.td_calls(eid)  # no class sends a TD call from the table's holder (D20)
    if calls:
        rep.fail(f"{len(calls)} TD calls opened, the first {calls[0]}")
    for c in store.contestants(eid, SECTION):  # the event's numbers and own_noise's: digits
        for player in c["players"] or []:
            number = player.get("number")
            if number is not None and not str(number).isdigit():
                rep.fail(f"member number {number!r} stored for pair {c['number']}")
    for live in store.live_results(eid, SECTION):
        key = (live.section, live.table, live.round, live.board)
        content = (
            live.ns_pair,
            live.ew_pair,
            live.contract or "",
            live.declarer,
            live.lead,
            live.tricks,
        )
        sent = room.sent_legit.get(key, [])
        if not sent or content != sent[-1]:
            rep.fail(f"live result of {key} is {content}, the last sent {sent[-1:]}")


@contextlib.asynccontextmanager
async def hostile_room(folder: Path, seed: int = 12, window: int = 256):
    """The real hub with its terminals seated (``HostileRoom``); stopped on the way out.
    Whatever the hub logs at ERROR is collected in ``room.errors``."""
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    room = HostileRoom(folder, seed, window)
    room.errors = errors
    try:
        await room.start()
        try:
            await room.seat_terminals()
            yield room
        finally:
            await room.hub.stop()
            room.store.close()
    finally:
        logging.getLogger().removeHandler(errors)


async def run_hostile(
    messages: int,
    seed: int,
    folder: Path,
    mix: dict[str, float] | None = None,
    window: int = 256,
) -> HostileReport:
    """``messages`` hostile messages into the real hub (classes weighted by ``mix``, by
    default ``BROAD``); the report of what happened and what was stored."""
    async with hostile_room(folder, seed, window) as room:
        room.report.messages = 0
        t0 = time.perf_counter()
        await room.play(messages, mix or BROAD)
        room.report.seconds = time.perf_counter() - t0
        room.report.restarts = sum(h.restarts for h in room.hub.supervisor.health.values())
        try:
            await room.hub.snapshot()  # the director's view still builds
        except Exception as e:
            room.report.fail(f"the hub's snapshot fails: {type(e).__name__}: {e}")
        await room.hub.audit.flush()
        room.report.settle_s = time.perf_counter() - t0 - room.report.seconds
        room.report.audit_rows = len(room.store.audit_log(room.event_id))
        check_store(room)
    rep = room.report
    rep.errors_logged = len(room.errors.records)
    for rec in room.errors.records[:5]:
        rep.fail(f"logged {rec.levelname} {rec.name}: {rec.getMessage()[:300]}")
    if rep.restarts:
        rep.fail(f"supervised tasks restarted {rep.restarts} times")
    return rep


def main() -> None:  # pragma: no cover - a quick look: python tests/hostile.py N
    import sys
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        rep = asyncio.run(run_hostile(n, 12, Path(tmp)))
    print("\n".join(rep.lines()))


if __name__ == "__main__":
    main()
