"""The reliable link, sans I/O: sequence numbers, ACK/NAK, retransmission, duplicate and
replay handling, epochs. Feed it bytes and the time; it returns events and bytes to send.

One ``Link`` serves one serial or USB line; frames for many terminals share it, each
terminal with its own sequence space in each direction (stop-and-wait per terminal).
Epochs (docs/protocol.md §3): a HELLO starts the sender's epoch, whatever its value, so a
restarted peer is never refused for its epoch; a non-HELLO frame starts only a higher
epoch, and only at sequence 1.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from drivers.protocol.codec import MessageError
from drivers.protocol.frame import MAX_PAYLOAD, BadFrame, Frame, FrameDecoder, FrameFault
from drivers.protocol.messages import Ack, Hello, Message, Nak, NakCode, Outcome, decode_message

RTO = 0.25
MAX_RTO = 2.0
MAX_TRIES = 8
RESTART_CODES = (NakCode.UNKNOWN_EPOCH, NakCode.STALE_EPOCH)


def random_epoch() -> int:
    """An epoch for an end that keeps no boot counter (a simulator, a test, a driver the
    hub has not given its boot yet): random, so it differs from its previous one's."""
    return secrets.randbelow(0xFFFFFFFF) + 1


def encoded(message: Message) -> bytes:
    """The payload of ``message``; raises MessageError naming the field that does not fit
    (display text never does: it is cut to fit) or when the payload exceeds a frame."""
    payload = message.payload()
    if len(payload) > MAX_PAYLOAD:
        raise MessageError("payload", f"{len(payload)} bytes exceed a frame's {MAX_PAYLOAD}")
    return payload


# -- events ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Received:
    """A message for the application. If ``message.NEEDS_ACK`` the application answers it
    with ``Link.ack`` (after doing what it asks, e.g. storing a result) or ``Link.nak``."""

    terminal: int
    epoch: int
    seq: int
    message: Message


@dataclass(frozen=True, slots=True)
class Acked:
    terminal: int
    message: Message
    outcome: Outcome
    text: str


@dataclass(frozen=True, slots=True)
class Nacked:
    terminal: int
    message: Message
    code: NakCode | int
    text: str


@dataclass(frozen=True, slots=True)
class GaveUp:
    """No answer after every retry: the terminal (or the line) is presumed gone."""

    terminal: int
    message: Message
    tries: int


@dataclass(frozen=True, slots=True)
class Refused:
    """A frame the link itself refused (stale epoch, replay, bad payload); logged."""

    terminal: int
    epoch: int
    seq: int
    code: NakCode
    reason: str


@dataclass(frozen=True, slots=True)
class Garbage:
    """Bytes dropped between delimiters (noise, truncation, CRC failure)."""

    fault: FrameFault
    size: int


@dataclass(frozen=True, slots=True)
class PeerRestarted:
    terminal: int
    old_epoch: int
    new_epoch: int


Event = Received | Acked | Nacked | GaveUp | Refused | Garbage | PeerRestarted


@dataclass
class _Inflight:
    message: Message
    payload: bytes
    wire: bytes
    seq: int
    tries: int
    due: float


@dataclass
class _Out:
    next_seq: int = 1
    queue: deque[tuple[Message, bytes]] = field(default_factory=deque)  # message, payload
    inflight: _Inflight | None = None
    greeted: bool = False  # this end's HELLO is queued or sent in this sequence space
    greeted_again: bool = False  # a HELLO given up was followed by another, nothing answered
    restarted: Message | None = None  # the message a restart after NAK 3/4 resends


@dataclass
class _In:
    epoch: int
    last: int
    answer: bytes | None = None  # the answer to ``last``, sent again for a duplicate


class Link:
    """One end of a line. ``epoch`` is this end's epoch for frames it sends (per terminal
    address when a simulator plays many terminals: ``set_epoch``). Sans-I/O: fed bytes and
    times by its one owner (the driver on the hub's loop, the simulator's station, a test).

    ``hello``: the HELLO this end sends from or to an address (the hub's to each terminal,
    a station's for itself and each of its terminals). Then every address's sequence in
    this epoch begins with it (sequence 1, before any other frame); a HELLO given up is
    sent again before the next message; and a peer that refuses a message for its epoch
    (NAK 3 or 4: it kept another epoch of ours) gets the HELLO as sequence 1 again, then
    the refused message, once (docs/protocol.md §3)."""

    def __init__(
        self,
        clock: Callable[[], float],
        epoch: int,
        *,
        hello: Callable[[int], Message] | None = None,
        rto: float = RTO,
        max_rto: float = MAX_RTO,
        max_tries: int = MAX_TRIES,
    ) -> None:
        self.clock = clock
        self.default_epoch = epoch
        self.hello = hello
        self.rto, self.max_rto, self.max_tries = rto, max_rto, max_tries
        self._epochs: dict[int, int] = {}
        self._out: dict[int, _Out] = {}
        self._in: dict[int, _In] = {}
        self._decoder = FrameDecoder()
        self._outbox = bytearray()
        self.stats = {
            "frames_in": 0,
            "frames_out": 0,
            "retransmits": 0,
            "duplicates": 0,
            "garbage": 0,
            "refused": 0,
        }

    # -- sending ----------------------------------------------------------------------------
    def epoch(self, terminal: int) -> int:
        return self._epochs.get(terminal, self.default_epoch)

    def set_epoch(self, terminal: int, epoch: int) -> None:
        """Start a new epoch for frames to/for ``terminal`` (a reboot): sequence numbers
        restart at 1 and anything unsent is forgotten, as a rebooted device forgets it."""
        self._epochs[terminal] = epoch
        self._out[terminal] = _Out()

    def send(self, terminal: int, message: Message) -> None:
        """Queue a message; those that need an ACK go one at a time per terminal. Encoded
        here, so a message that cannot be encoded raises MessageError to the sender and
        never reaches the line (display text is cut to fit instead)."""
        payload = encoded(message)
        if not message.NEEDS_ACK:
            if self.hello is not None:  # a peer drops frames of an epoch it was not told of
                self.greet(terminal)
            self._emit(Frame(terminal, self.epoch(terminal), 0, message.TYPE, payload))
            return
        out = self._sending(terminal)
        out.queue.append((message, payload))
        self._pump(terminal, out)

    def greet(self, terminal: int) -> None:
        """Begin this end's epoch toward ``terminal`` now (its HELLO goes out as sequence 1)
        unless it has begun; nothing without ``hello``."""
        self._pump(terminal, self._sending(terminal))

    def _sending(self, terminal: int) -> _Out:
        out = self._out.setdefault(terminal, _Out())
        if self.hello is not None and not out.greeted:
            out.greeted = True
            hello = self.hello(terminal)
            out.queue.appendleft((hello, encoded(hello)))
        return out

    def _unbegun(self, terminal: int, out: _Out) -> None:
        """This end's HELLO was given up: the peer may never have seen the epoch begin,
        and would refuse what follows (NAK 3). What waits goes behind a new HELLO (at the
        next sequence number: a HELLO starts an epoch at any, §3); if that one is given up
        too, what waits goes on (given up in turn, so the queue drains while the peer is
        gone) and the next message sent brings a HELLO again."""
        out.greeted = False
        if out.queue and not out.greeted_again:
            out.greeted_again = True
            self._sending(terminal)

    def pending(self, terminal: int) -> int:
        out = self._out.get(terminal)
        if out is None:
            return 0
        return len(out.queue) + (1 if out.inflight else 0)

    def _pump(self, terminal: int, out: _Out) -> None:
        if out.inflight is not None or not out.queue:
            return
        msg, payload = out.queue.popleft()
        seq = out.next_seq
        out.next_seq = seq + 1 if seq < 0xFFFFFFFF else 1
        wire = Frame(terminal, self.epoch(terminal), seq, msg.TYPE, payload).encode()
        out.inflight = _Inflight(msg, payload, wire, seq, 1, self.clock() + self.rto)
        self._outbox += wire
        self.stats["frames_out"] += 1

    def _emit(self, frame: Frame) -> bytes:
        wire = frame.encode()
        self._outbox += wire
        self.stats["frames_out"] += 1
        return wire

    def data_to_send(self) -> bytes:
        data = bytes(self._outbox)
        self._outbox.clear()
        return data

    # -- answering --------------------------------------------------------------------------
    def ack(self, rx: Received, outcome: Outcome = Outcome.OK, text: str = "") -> None:
        self._answer(rx, Ack(rx.epoch, rx.seq, int(outcome), text))

    def nak(self, rx: Received, code: NakCode, text: str = "") -> None:
        self._answer(rx, Nak(rx.epoch, rx.seq, int(code), text))

    def _answer(self, rx: Received, answer: Ack | Nak) -> None:
        wire = self._emit(
            Frame(rx.terminal, self.epoch(rx.terminal), 0, answer.TYPE, answer.payload())
        )
        st = self._in.get(rx.terminal)
        if st is not None and (st.epoch, st.last) == (rx.epoch, rx.seq):
            st.answer = wire  # only the newest message's duplicates can still arrive

    def _refuse(self, frame: Frame, code: NakCode, reason: str, events: list[Event]) -> None:
        self.stats["refused"] += 1
        events.append(Refused(frame.terminal, frame.epoch, frame.seq, code, reason))
        if frame.seq:
            self._emit(
                Frame(
                    frame.terminal,
                    self.epoch(frame.terminal),
                    0,
                    Nak.TYPE,
                    Nak(frame.epoch, frame.seq, int(code), reason).payload(),
                )
            )

    # -- receiving --------------------------------------------------------------------------
    def feed(self, data: bytes) -> list[Event]:
        events: list[Event] = []
        for item in self._decoder.feed(data):
            if isinstance(item, BadFrame):
                self.stats["garbage"] += 1
                events.append(Garbage(item.fault, item.size))
                continue
            self.stats["frames_in"] += 1
            self._on_frame(item, events)
        return events

    def _on_frame(self, frame: Frame, events: list[Event]) -> None:
        try:
            msg = decode_message(frame.type, frame.payload)
        except MessageError as e:
            code = NakCode.UNKNOWN_TYPE if e.field == "type" else NakCode.BAD_PAYLOAD
            self._refuse(frame, code, str(e), events)
            return
        if isinstance(msg, Ack | Nak):
            self._on_answer(frame.terminal, msg, events)
            return
        st = self._in.get(frame.terminal)
        if frame.seq == 0:  # unsequenced: status, heartbeat, clock
            if st is None or frame.epoch >= st.epoch:
                events.append(Received(frame.terminal, frame.epoch, 0, msg))
            return
        if st is None:
            st = self._in[frame.terminal] = _In(frame.epoch, frame.seq - 1)
        elif frame.epoch != st.epoch:
            if isinstance(msg, Hello) or (frame.epoch > st.epoch and frame.seq == 1):
                events.append(PeerRestarted(frame.terminal, st.epoch, frame.epoch))
                st = self._in[frame.terminal] = _In(frame.epoch, frame.seq - 1)
            elif frame.epoch < st.epoch:
                reason = f"epoch {frame.epoch} is older than {st.epoch}: start with HELLO"
                self._refuse(frame, NakCode.STALE_EPOCH, reason, events)
                return
            else:
                reason = f"epoch {frame.epoch} must start with HELLO or sequence 1"
                self._refuse(frame, NakCode.UNKNOWN_EPOCH, reason, events)
                return
        if frame.seq == st.last:
            self.stats["duplicates"] += 1
            if st.answer is not None:
                self._outbox += st.answer
            return
        if frame.seq < st.last:
            self._refuse(
                frame,
                NakCode.REPLAY,
                f"sequence {frame.seq} was already used (last {st.last})",
                events,
            )
            return
        st.last, st.answer = frame.seq, None
        events.append(Received(frame.terminal, frame.epoch, frame.seq, msg))

    def _on_answer(self, terminal: int, answer: Ack | Nak, events: list[Event]) -> None:
        out = self._out.get(terminal)
        if out is None or out.inflight is None:
            return
        inflight = out.inflight
        if (answer.acked_epoch, answer.acked_seq) != (self.epoch(terminal), inflight.seq):
            return  # a late answer to an earlier try
        out.inflight = None
        out.greeted_again = False  # the peer answers again
        msg = inflight.message
        if isinstance(answer, Ack):
            try:
                outcome = Outcome(answer.outcome)
            except ValueError:
                outcome = Outcome.OK
            events.append(Acked(terminal, msg, outcome, answer.text))
        elif self.hello is not None and self._restarts(out, answer, msg):
            hello = self.hello(terminal)
            out.next_seq, out.restarted = 1, msg
            out.queue.extendleft([(msg, inflight.payload), (hello, encoded(hello))])
        else:
            try:
                code: NakCode | int = NakCode(answer.code)
            except ValueError:
                code = answer.code
            events.append(Nacked(terminal, msg, code, answer.text))
        self._pump(terminal, out)

    def _restarts(self, out: _Out, nak: Nak, msg: Message) -> bool:
        """Whether a refusal for our epoch is answered by beginning it again with HELLO:
        once per message, never for a HELLO (a peer that refuses it is not helped)."""
        return nak.code in RESTART_CODES and not isinstance(msg, Hello) and out.restarted is not msg

    # -- time -------------------------------------------------------------------------------
    def poll(self) -> list[Event]:
        """Retransmit what is due; give up after ``max_tries``."""
        now = self.clock()
        events: list[Event] = []
        for terminal, out in self._out.items():
            inflight = out.inflight
            if inflight is None or now < inflight.due:
                continue
            if inflight.tries >= self.max_tries:
                out.inflight = None
                events.append(GaveUp(terminal, inflight.message, inflight.tries))
                if self.hello is not None and isinstance(inflight.message, Hello):
                    self._unbegun(terminal, out)
                self._pump(terminal, out)
                continue
            inflight.due = now + min(self.rto * (2**inflight.tries), self.max_rto)
            inflight.tries += 1
            self._outbox += inflight.wire
            self.stats["retransmits"] += 1
        return events

    def next_deadline(self) -> float | None:
        dues = [o.inflight.due for o in self._out.values() if o.inflight is not None]
        return min(dues) if dues else None
