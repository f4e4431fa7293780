"""The reliable link as a state machine (docs/protocol.md §3): two ``Link``s over a channel
that loses, duplicates and reorders frames, with applications that answer late, refuse, or
never answer. Virtual time only.

Properties checked after any sequence of steps, once the channel is made reliable and time
runs on until every message is settled:
- no message is delivered to an application twice;
- every message sent gets exactly one settlement at its sender: Acked, Nacked or GaveUp;
- Acked or Nacked: the message was delivered exactly once, and the answer is the one its
  application gave;
- every message that is not given up is delivered exactly once.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from drivers.protocol.frame import DELIMITER
from drivers.protocol.link import Acked, GaveUp, Link, Nacked, Received
from drivers.protocol.messages import NakCode, Outcome, TDMessage

SIDES = ("hub", "station")
ADDRESSES = (1, 2)


def frames(data: bytes) -> list[bytes]:
    """The frames in a burst of bytes, each with its delimiter (the unit the channel
    loses, duplicates and reorders)."""
    return [part + DELIMITER for part in data.split(DELIMITER) if part]


class LinkOverABadChannel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        self.links = {
            "hub": Link(lambda: self.now, epoch=1_800_000_000),
            "station": Link(lambda: self.now, epoch=7),
        }
        self.channel: dict[str, list[bytes]] = {side: [] for side in SIDES}  # to that side
        self.waiting: dict[str, list[Received]] = {side: [] for side in SIDES}
        self.delivered: Counter[str] = Counter()
        self.answers: dict[str, tuple[str, int]] = {}  # message text -> what the app said
        self.settled: dict[str, list[Acked | Nacked | GaveUp]] = {}
        self.sent: list[str] = []

    @staticmethod
    def other(side: str) -> str:
        return "station" if side == "hub" else "hub"

    def _collect(self, side: str) -> None:
        self.channel[self.other(side)] += frames(self.links[side].data_to_send())

    def _events(self, side: str, events: list) -> None:
        for ev in events:
            if isinstance(ev, Received) and ev.message.NEEDS_ACK:
                self.delivered[ev.message.text] += 1
                self.waiting[side].append(ev)
            elif isinstance(ev, Acked | Nacked | GaveUp):
                self.settled.setdefault(ev.message.text, []).append(ev)
        self._collect(side)

    # -- the applications -------------------------------------------------------------------
    @rule(side=st.sampled_from(SIDES), address=st.sampled_from(ADDRESSES))
    def send(self, side: str, address: int) -> None:
        text = f"{side}>{address}#{len(self.sent)}"
        self.sent.append(text)
        self.links[side].send(address, TDMessage(text))
        self._collect(side)

    @rule(side=st.sampled_from(SIDES), pick=st.integers(0, 50), how=st.sampled_from("ank"))
    def answer(self, side: str, pick: int, how: str) -> None:
        """The application answers a waiting message (perhaps late): ACK, NAK, or never
        (``k``: it failed and forgot the message)."""
        waiting = self.waiting[side]
        if not waiting:
            return
        rx = waiting.pop(pick % len(waiting))
        if how == "a":
            self.answers[rx.message.text] = ("ack", int(Outcome.ACCEPTED))
            self.links[side].ack(rx, Outcome.ACCEPTED, rx.message.text)
        elif how == "n":
            self.answers[rx.message.text] = ("nak", int(NakCode.NOT_ALLOWED))
            self.links[side].nak(rx, NakCode.NOT_ALLOWED, rx.message.text)
        self._collect(side)

    # -- the channel --------------------------------------------------------------------------
    @rule(to=st.sampled_from(SIDES), pick=st.integers(0, 50))
    def deliver(self, to: str, pick: int) -> None:
        """Any frame in flight arrives next: the channel reorders."""
        queue = self.channel[to]
        if queue:
            self._events(to, self.links[to].feed(queue.pop(pick % len(queue))))

    @rule(to=st.sampled_from(SIDES), pick=st.integers(0, 50))
    def lose(self, to: str, pick: int) -> None:
        queue = self.channel[to]
        if queue:
            queue.pop(pick % len(queue))

    @rule(to=st.sampled_from(SIDES), pick=st.integers(0, 50))
    def duplicate(self, to: str, pick: int) -> None:
        queue = self.channel[to]
        if queue:
            queue.append(queue[pick % len(queue)])

    @rule(seconds=st.sampled_from([0.1, 0.3, 1.0, 2.5]))
    def wait(self, seconds: float) -> None:
        self.now += seconds
        for side in SIDES:
            self._events(side, self.links[side].poll())

    # -- what must always hold ------------------------------------------------------------------
    @invariant()
    def nothing_is_delivered_twice(self) -> None:
        assert all(n == 1 for n in self.delivered.values()), self.delivered

    @invariant()
    def nothing_is_settled_twice(self) -> None:
        assert all(len(s) == 1 for s in self.settled.values()), self.settled

    def teardown(self) -> None:
        """A reliable channel, answering applications and time: every message settles."""
        for _ in range(400):
            for side in SIDES:
                for rx in self.waiting[side]:
                    self.answers[rx.message.text] = ("ack", int(Outcome.OK))
                    self.links[side].ack(rx, Outcome.OK, rx.message.text)
                self.waiting[side].clear()
                self._collect(side)
            for to in SIDES:
                while self.channel[to]:
                    self._events(to, self.links[to].feed(self.channel[to].pop(0)))
            if len(self.settled) == len(self.sent) and not any(self.channel.values()):
                break
            self.wait(0.25)
        self.nothing_is_delivered_twice()
        self.nothing_is_settled_twice()
        assert sorted(self.settled) == sorted(self.sent), "a message was never settled"
        for text in self.sent:
            (ev,) = self.settled[text]
            if isinstance(ev, GaveUp):
                assert self.delivered[text] <= 1
                continue
            assert self.delivered[text] == 1, f"{text} answered but not delivered once"
            kind, code = self.answers[text]
            if isinstance(ev, Acked):
                assert (kind, int(ev.outcome), ev.text) == ("ack", code, text)
            else:
                assert (kind, int(ev.code), ev.text) == ("nak", code, text)


LinkOverABadChannel.TestCase.settings = settings(
    max_examples=300, stateful_step_count=80, deadline=None
)
test_the_link_delivers_once_and_settles_every_message = LinkOverABadChannel.TestCase
