"""BHWP/1: frames, messages and the reliable link (docs/protocol.md).

Corruption model (decisions D7): frames carry a CRC-32C, so every corruption confined to a
burst of up to 32 bits is detected; for arbitrary random corruption the tests assert that
no exception escapes and that nothing but the original frame (or nothing) is delivered.
"""

from __future__ import annotations

import itertools
import random

import crc32c
import pytest
from hostile import hostile_frames
from hypothesis import given, settings
from hypothesis import strategies as st
from wire_strategies import for_record

from drivers.protocol.codec import MessageError
from drivers.protocol.frame import BadFrame, Frame, FrameDecoder, FrameFault, unpack
from drivers.protocol.link import (
    Acked,
    Garbage,
    GaveUp,
    Link,
    Nacked,
    PeerRestarted,
    Received,
    Refused,
)
from drivers.protocol.messages import (
    REGISTRY,
    Assignment,
    Clock,
    DeviceKind,
    Hello,
    NakCode,
    Outcome,
    PlayerName,
    RankingPage,
    RankLine,
    Result,
    TDMessage,
    TerminalJoined,
    TerminalLeft,
    decode_message,
)

ALL_TYPES = sorted(REGISTRY)


def test_crc32c_check_value():
    """The catalogue check value of CRC-32C (Castagnoli) for "123456789"."""
    assert crc32c.crc32c(b"123456789") == 0xE3069283


@pytest.mark.parametrize("code", ALL_TYPES, ids=lambda c: REGISTRY[c].__name__)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_message_type_round_trips(code, data):
    cls = REGISTRY[code]
    msg = data.draw(for_record(cls))
    frame = Frame(
        data.draw(st.integers(0, 0xFFFF)),
        data.draw(st.integers(0, 2**32 - 1)),
        data.draw(st.integers(0, 2**32 - 1)),
        cls.TYPE,
        msg.payload(),
    )
    (got,) = FrameDecoder().feed(frame.encode())
    assert got == frame
    assert decode_message(got.type, got.payload) == msg


def test_frames_never_contain_the_delimiter_inside():
    frame = Frame(1, 2, 3, Result.TYPE, bytes(range(256)) * 2)
    wire = frame.encode()
    assert wire.count(0) == 1 and wire.endswith(b"\x00")


@settings(max_examples=300, deadline=None)
@given(
    payload=st.binary(max_size=200),
    start=st.integers(0, 10_000),
    burst=st.integers(1, 32),
    pattern=st.integers(1, 2**32 - 1),
)
def test_d7_every_burst_of_up_to_32_bits_is_detected(payload, start, burst, pattern):
    """A burst error of ≤ 32 bits anywhere in the packed frame never passes the CRC."""
    raw = bytearray(Frame(5, 9, 4, Result.TYPE, payload).pack())
    nbits = len(raw) * 8
    first = start % (nbits - burst + 1)
    bits = (pattern & ((1 << burst) - 1)) | 1 | (1 << (burst - 1))  # burst spans `burst` bits
    for k in range(burst):
        if bits >> k & 1:
            pos = first + k
            raw[pos // 8] ^= 0x80 >> (pos % 8)
    assert isinstance(unpack(bytes(raw)), BadFrame)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_random_corruption_never_yields_a_wrong_frame(data):
    """Flipped bits, dropped, inserted and truncated bytes: the decoder yields the original
    frame or faults, never another frame, and never raises."""
    frame = Frame(
        data.draw(st.integers(0, 300)),
        7,
        data.draw(st.integers(1, 1000)),
        Result.TYPE,
        data.draw(st.binary(max_size=120)),
    )
    wire = bytearray(frame.encode())
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "drop", "insert", "truncate"]))
        if not wire:
            break
        i = data.draw(st.integers(0, len(wire) - 1))
        if op == "flip":
            wire[i] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "drop":
            del wire[i]
        elif op == "insert":
            wire.insert(i, data.draw(st.integers(0, 255)))
        else:
            del wire[i:]
    out = FrameDecoder().feed(bytes(wire))
    assert all(isinstance(x, BadFrame) or x == frame for x in out)


@given(garbage=st.binary(max_size=300))
def test_the_decoder_resynchronises_after_garbage(garbage):
    frame = Frame(3, 1, 1, Hello.TYPE, Hello(1, "BM-7").payload())
    out = FrameDecoder().feed(garbage + b"\x00" + frame.encode())
    assert out[-1] == frame


def test_a_frame_split_across_reads_is_reassembled():
    wire = Frame(3, 1, 1, Hello.TYPE, Hello(1, "BM-7").payload()).encode()
    dec = FrameDecoder()
    got = []
    for b in wire:
        got += dec.feed(bytes([b]))
    assert len(got) == 1 and isinstance(got[0], Frame)


def test_oversize_garbage_is_dropped_without_growing_forever():
    dec = FrameDecoder()
    out = dec.feed(b"\x55" * 20_000)
    assert out and out[0].fault is FrameFault.OVERSIZE


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        (b"\x01", "section"),
        (Result("A", 1, 1, 1, 1, 2, "4S", 0, "", 10, 0, 1).payload() + b"\x00", "payload"),
        (b"\x02\xff\xfe" + bytes(40), "section"),
    ],
)
def test_bad_payloads_name_the_field(payload, field):
    with pytest.raises(MessageError) as e:
        decode_message(Result.TYPE, payload)
    assert e.value.field == field


def test_unknown_message_type():
    with pytest.raises(MessageError, match="unknown message type 0x7F"):
        decode_message(0x7F, b"")


def test_encoding_refuses_out_of_range_values():
    with pytest.raises(MessageError, match="table: 70000 is not a u16"):
        Result("A", 70000, 1, 1, 1, 2, "4S", 0, "", 10, 0, 1).payload()
    with pytest.raises(MessageError, match="longer than 255"):
        Hello(1, "x" * 300).payload()


# -- the link -------------------------------------------------------------------------------
class Wire:
    """Two links joined back to back, with an injected clock."""

    def __init__(self):
        self.now = 0.0
        self.hub = Link(lambda: self.now, epoch=100)
        self.term = Link(lambda: self.now, epoch=1)

    def to_hub(self, transform=lambda b: b):
        return self.hub.feed(transform(self.term.data_to_send()))

    def to_term(self, transform=lambda b: b):
        return self.term.feed(transform(self.hub.data_to_send()))


RES = Result("A", 3, 2, 7, 5, 12, "4SX", 0, "HA", 10, 0, 1)


def test_ack_only_after_the_application_answers():
    w = Wire()
    w.term.send(3, RES)
    (rx,) = w.to_hub()
    assert isinstance(rx, Received) and rx.message == RES
    assert w.to_term() == []  # nothing yet: the hub stores first
    w.hub.ack(rx, Outcome.ACCEPTED)
    (ev,) = w.to_term()
    assert isinstance(ev, Acked) and ev.outcome is Outcome.ACCEPTED


def test_retransmission_and_duplicate_re_ack_without_redelivery():
    w = Wire()
    w.term.send(3, RES)
    w.term.data_to_send()  # the first try is lost
    w.now = 0.3
    assert w.term.poll() == []
    (rx,) = w.to_hub()
    w.hub.ack(rx, Outcome.ACCEPTED)
    w.hub.data_to_send()  # the ACK is lost
    w.now = 1.0
    w.term.poll()
    assert w.to_hub() == []  # a duplicate: not delivered again ...
    (ev,) = w.to_term()  # ... but re-ACKed with the stored answer
    assert isinstance(ev, Acked) and ev.outcome is Outcome.ACCEPTED
    assert w.hub.stats["duplicates"] == 1


def test_backoff_then_give_up():
    w = Wire()
    w.term.send(3, RES)
    times = []
    for step in range(400):
        w.now = step * 0.05
        before = w.term.stats["retransmits"]
        events = w.term.poll()
        if w.term.stats["retransmits"] > before:
            times.append(round(w.now, 2))
        w.term.data_to_send()
        if any(isinstance(e, GaveUp) for e in events):
            break
    gaps = [round(b - a, 2) for a, b in itertools.pairwise(times)]
    assert gaps[:3] == [0.5, 1.0, 2.0] and max(gaps) <= 2.05
    assert isinstance(events[-1], GaveUp) and events[-1].tries == 8


def test_refusal_is_final_and_carries_the_reason():
    w = Wire()
    w.term.send(3, RES)
    (rx,) = w.to_hub()
    w.hub.nak(rx, NakCode.INVALID_RESULT, "+3 is impossible for 5H: at most +2")
    (ev,) = w.to_term()
    assert isinstance(ev, Nacked) and ev.code is NakCode.INVALID_RESULT
    assert ev.text == "+3 is impossible for 5H: at most +2"
    assert w.term.pending(3) == 0


def test_a_rebooted_terminal_starts_a_new_epoch_and_old_frames_are_refused():
    w = Wire()
    w.term.send(3, Hello(1, "BM-3"))
    (rx,) = w.to_hub()
    w.hub.ack(rx)
    w.to_term()
    w.term.send(3, RES)
    old_frame = w.term.data_to_send()
    (rx,) = w.hub.feed(old_frame)
    w.hub.ack(rx)
    w.to_term()
    w.term.set_epoch(3, 2)  # reboot: sequence numbers restart
    w.term.send(3, Hello(1, "BM-3"))
    events = w.to_hub()
    assert isinstance(events[0], PeerRestarted) and events[0].new_epoch == 2
    assert isinstance(events[1], Received) and events[1].seq == 1
    stale = w.hub.feed(old_frame)  # a replay of the previous epoch
    assert isinstance(stale[0], Refused) and stale[0].code is NakCode.STALE_EPOCH


def test_a_replayed_sequence_number_is_refused():
    w = Wire()
    frames = []
    for _ in range(3):
        w.term.send(3, RES)
        frames.append(w.term.data_to_send())
        (rx,) = w.hub.feed(frames[-1])
        w.hub.ack(rx)
        w.to_term()
    (ev,) = w.hub.feed(frames[0])
    assert isinstance(ev, Refused) and ev.code is NakCode.REPLAY


def test_many_terminals_share_one_line():
    w = Wire()
    for t in range(1, 21):
        w.term.set_epoch(t, 50 + t)
        w.term.send(t, RES)
    rxs = w.to_hub()
    assert sorted(r.terminal for r in rxs) == list(range(1, 21))
    for r in rxs:
        w.hub.ack(r, Outcome.ACCEPTED)
    assert len([e for e in w.to_term() if isinstance(e, Acked)]) == 20


def test_garbage_on_the_line_is_reported_not_raised():
    w = Wire()
    events = w.hub.feed(b"\x13\x37noise\x00")
    assert isinstance(events[0], Garbage)


def test_fuzz_100k_random_and_mutated_frames_never_escape():
    """D7 / issue 12: 100,000 random and mutated frames (``tests/hostile.py``: random bytes,
    bit flips, truncation, splices, COBS damage, oversize runs, recomputed-CRC frames with
    random types and payloads) into a hub-end link as one stream in random chunk sizes: no
    exception, only known events. ``bench/fuzz.py --frames`` runs a million."""
    rng = random.Random(2026)
    hub = Link(lambda: 0.0, epoch=9, hello=lambda _address: Hello(3, "bridgehub", "test"))
    kinds = (Received, Garbage, Refused, PeerRestarted, Acked, Nacked)
    blob = b"".join(data for _, data in hostile_frames(rng, 100_000))
    seen: set[type] = set()
    k = 0
    while k < len(blob):
        n = rng.randint(1, 512)
        for ev in hub.feed(blob[k : k + n]):
            assert isinstance(ev, kinds)
            seen.add(type(ev))
            if isinstance(ev, Received) and ev.message.NEEDS_ACK:
                hub.ack(ev)
        hub.data_to_send()
        k += n
    assert {Received, Garbage, Refused} <= seen


# -- epochs (docs/protocol.md §3) ---------------------------------------------------------------
HUB_HELLO = Hello(int(DeviceKind.HUB), "bridgehub", "test")
ASSIGN = Assignment("A", 3, 1, 3, 103, (1, 2))


def test_s3_a_hello_starts_a_new_epoch_even_a_lower_one():
    """A restarted sender whose epoch went down (a new store, a clock stepped back) is not
    refused: its HELLO starts its epoch. Without HELLO a lower epoch stays stale."""
    w = Wire()
    w.term.set_epoch(3, 1_800_000_000)
    for msg in (Hello(1, "BM-3"), RES):
        w.term.send(3, msg)
        (rx,) = w.to_hub()
        w.hub.ack(rx)
        w.to_term()
    w.term.set_epoch(3, 5)  # restarted, with a lower epoch
    w.term.send(3, Hello(1, "BM-3"))
    restarted, hello = w.to_hub()
    assert isinstance(restarted, PeerRestarted) and restarted.new_epoch == 5
    assert isinstance(hello, Received) and (hello.epoch, hello.seq) == (5, 1)
    w.hub.ack(hello)
    w.to_term()
    w.term.send(3, RES)
    (rx,) = w.to_hub()
    assert isinstance(rx, Received) and (rx.epoch, rx.seq) == (5, 2)
    stale = w.hub.feed(Frame(3, 4, 9, Result.TYPE, RES.payload()).encode())
    assert isinstance(stale[0], Refused) and stale[0].code is NakCode.STALE_EPOCH


def test_s3_the_hub_begins_every_address_with_its_hello():
    """The hub is a device like the others: sequence 1 of its epoch to each address is its
    HELLO, then what it has to say."""
    w = Wire()
    w.hub = Link(lambda: w.now, epoch=100, hello=lambda _address: HUB_HELLO)
    w.hub.send(3, ASSIGN)
    (hello,) = w.to_term()
    assert isinstance(hello, Received) and hello.message == HUB_HELLO
    assert (hello.epoch, hello.seq) == (100, 1)
    w.term.ack(hello)
    (acked,) = w.to_hub()
    assert isinstance(acked, Acked) and acked.message == HUB_HELLO
    (assign,) = w.to_term()
    assert assign.message == ASSIGN and assign.seq == 2
    w.hub.greet(0)  # the station's HELLO on line-up, once
    w.hub.greet(0)
    (station_hello,) = w.to_term()
    assert station_hello.message == HUB_HELLO and station_hello.terminal == 0
    w.hub.send(5, Clock("A", 1, 0, 600))  # an unsequenced frame: the HELLO goes first
    hello, clock = w.to_term()
    assert (hello.terminal, hello.seq, hello.message) == (5, 1, HUB_HELLO)
    assert (clock.terminal, clock.seq, clock.message) == (5, 0, Clock("A", 1, 0, 600))


def test_s3_a_hello_given_up_goes_again_before_the_next_message():
    """The hub's HELLO was given up (the terminal out of range; it still holds the previous
    hub's epoch). [LIVENESS]: the next message no longer goes as sequence 2 of an epoch the
    terminal never saw begin (refused, NAK 3): a HELLO goes again first, then the message;
    nothing is refused and the message is delivered."""
    w = Wire()
    first = Link(lambda: w.now, epoch=100, hello=lambda _address: HUB_HELLO)
    first.send(3, ASSIGN)
    for _ in range(2):
        for ev in w.term.feed(first.data_to_send()):
            if isinstance(ev, Received):
                w.term.ack(ev)
        first.feed(w.term.data_to_send())
    w.hub = Link(lambda: w.now, epoch=101, hello=lambda _address: HUB_HELLO)  # a restart
    w.hub.send(3, ASSIGN)
    events = []
    while not events:  # every try of its HELLO is lost
        w.now += 2.5
        w.hub.data_to_send()
        events = w.hub.poll()
    assert isinstance(events[0], GaveUp) and events[0].message == HUB_HELLO
    restarted, hello = w.to_term()
    assert isinstance(restarted, PeerRestarted) and hello.message == HUB_HELLO
    assert (hello.epoch, hello.seq) == (101, 2)
    w.term.ack(hello)
    w.to_hub()
    (assign,) = w.to_term()
    assert assign.message == ASSIGN and (assign.epoch, assign.seq) == (101, 3)
    w.term.ack(assign)
    (acked,) = w.to_hub()
    assert isinstance(acked, Acked) and acked.message == ASSIGN
    assert w.term.stats["refused"] == 0


def test_s3_a_terminal_that_went_back_to_another_hub_epoch_is_greeted_again():
    """A late copy of the previous hub's HELLO takes the terminal back to that epoch (a
    HELLO starts any); it refuses the hub's next message (NAK 3). The hub begins its epoch
    again, HELLO as sequence 1, then the refused message: delivered, not lost."""
    w = Wire()
    first = Link(lambda: w.now, epoch=100, hello=lambda _address: HUB_HELLO)
    first.greet(3)
    old_hello = first.data_to_send()
    w.hub = Link(lambda: w.now, epoch=101, hello=lambda _address: HUB_HELLO)  # a restart
    w.hub.send(3, ASSIGN)
    for _ in range(2):
        for ev in w.to_term():
            if isinstance(ev, Received):
                w.term.ack(ev)
        w.to_hub()
    w.term.feed(old_hello)  # the line's late copy
    w.hub.send(3, RES)
    refused = w.to_term()
    assert isinstance(refused[0], Refused) and refused[0].code is NakCode.UNKNOWN_EPOCH
    assert w.to_hub() == []  # not reported: the hub begins again
    restarted, hello = w.to_term()
    assert isinstance(restarted, PeerRestarted) and (hello.epoch, hello.seq) == (101, 1)
    w.term.ack(hello)
    w.to_hub()
    (again,) = w.to_term()
    assert again.message == RES and (again.epoch, again.seq) == (101, 2)


def test_s3_terminal_joined_and_left_use_the_station_sequence_not_the_terminal_one():
    """TERMINAL_JOINED/LEFT are the station's messages: address 0, the station's epoch and
    sequence, the terminal's address in the payload. Announcing a terminal leaves its own
    HELLO and messages fresh (they were refused as stale before)."""
    w = Wire()
    station = Link(lambda: w.now, epoch=1_790_000_000)
    terminal = Link(lambda: w.now, epoch=1)  # a terminal's boot counter
    got: list = []

    def exchange(sender: Link, address: int, msg) -> None:
        sender.send(address, msg)
        for ev in w.hub.feed(sender.data_to_send()):
            got.append(ev)
            if isinstance(ev, Received):
                w.hub.ack(ev)
        sender.feed(w.hub.data_to_send())

    exchange(station, 0, Hello(int(DeviceKind.BASE_STATION), "BS-1"))
    exchange(station, 0, TerminalJoined(3, "BM-3"))
    exchange(terminal, 3, Hello(1, "BM-3"))
    exchange(terminal, 3, RES)
    exchange(station, 0, TerminalLeft(3, 1))
    exchange(terminal, 3, RES)  # a new message after the station spoke of it
    assert not [e for e in got if isinstance(e, Refused)]
    seen = [(e.terminal, e.epoch, type(e.message).__name__) for e in got]
    assert seen == [
        (0, 1_790_000_000, "Hello"),
        (0, 1_790_000_000, "TerminalJoined"),
        (3, 1, "Hello"),
        (3, 1, "Result"),
        (0, 1_790_000_000, "TerminalLeft"),
        (3, 1, "Result"),
    ]
    assert got[1].message.address == 3 and got[4].message.address == 3


# -- text that does not fit its field -------------------------------------------------------------
@pytest.mark.parametrize(
    ("message", "field", "expected"),
    [
        # str16: 1,024 bytes. å is 2 bytes in UTF-8, 😀 4, € 3, ö 2.
        (TDMessage("å" * 600), "text", "å" * 512),
        (TDMessage("😀" * 300), "text", "😀" * 256),
        (TDMessage("a" + "😀" * 300), "text", "a" + "😀" * 255),
        # str8: 255 bytes.
        (PlayerName("A", 1, 1, 0, "123", "x" + "€" * 100), "name", "x" + "€" * 84),
        (RankingPage("A", 1, 1, 1, (RankLine("1", 7, 6000, "ö" * 200),)), "lines", None),
    ],
    ids=["a-ring", "emoji", "ascii+emoji", "euro", "rank-names"],
)
def test_display_text_is_cut_to_its_field_in_utf8_bytes_at_a_character_boundary(
    message, field, expected
):
    """Outbound display text longer than its field (counted in UTF-8 bytes) is cut on a
    character boundary, never refused (issue 11)."""
    got = decode_message(message.TYPE, message.payload())
    if expected is None:  # the ranking line's names: 127 ö = 254 bytes
        assert got.lines[0].names == "ö" * 127
    else:
        assert getattr(got, field) == expected


def test_a_long_text_queued_behind_another_message_does_not_break_the_link():
    """Review C8: a message queued while another is in flight used to be encoded when the
    first one's ACK arrived, so a too-long text raised out of ``feed`` and killed the line."""
    w = Wire()
    w.hub.send(3, TDMessage("first"))
    w.hub.send(3, TDMessage("😀" * 300))
    (rx,) = w.to_term()
    w.term.ack(rx)
    (acked,) = w.to_hub()  # pumps the queued message
    assert isinstance(acked, Acked)
    (rx,) = w.to_term()
    assert rx.message.text == "😀" * 256


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (Assignment("A", 70000, 1, 1, 2, (1,)), "table"),
        (Assignment("A" * 300, 1, 1, 1, 2, (1,)), "section"),
        (Assignment("A", 1, 1, 1, 2, tuple(range(1, 66))), "boards"),
        (RankingPage("A", 1, 1, 1, (RankLine("r" * 255, 1, 0, "n" * 255),) * 32), "payload"),
        (TDMessage("ok", beep=300), "beep"),
    ],
    ids=["number", "identifier", "list", "frame", "flag"],
)
def test_a_message_that_cannot_be_encoded_is_refused_by_send_and_the_link_goes_on(message, field):
    """Refused where it is sent, naming the field; nothing is queued and the next message
    goes out as usual."""
    w = Wire()
    with pytest.raises(MessageError) as e:
        w.hub.send(3, message)
    assert e.value.field == field
    assert w.hub.pending(3) == 0 and w.hub.data_to_send() == b""
    w.hub.send(3, TDMessage("next"))
    (rx,) = w.to_term()
    assert rx.message == TDMessage("next") and rx.seq == 1


def test_the_specification_lists_every_message_as_the_code_defines_it():
    """docs/protocol.md holds the generated message reference verbatim."""
    from pathlib import Path

    from drivers.protocol.spec import generated

    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text("utf-8")
    assert generated() in doc, "run: python -m drivers.protocol.spec, paste into docs"
