"""A virtual table terminal: logs on, takes its assignment, enters the bots' results,
keeps every unacknowledged result until the hub acknowledges it, shows what the hub says.
It can be rebooted at any moment: a result sent survives in its memory and goes again, and
so does the opponents' verification of it (lost, it would leave the board unfinished at the
hub and the section waiting); a board not yet entered is keyed again by the players."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol

from drivers.protocol.link import (
    Acked,
    GaveUp,
    Link,
    Nacked,
    Received,
    random_epoch,
)
from drivers.protocol.messages import (
    Assignment,
    BoardStarted,
    DeviceKind,
    Hello,
    Logon,
    MatchScore,
    Message,
    NakCode,
    NextSeating,
    Outcome,
    Result,
    ResultView,
    RoundStarted,
    Settings,
    Status,
    TDCall,
    Verify,
)
from simulator.bots import PlayerBot
from simulator.resends import Resends
from simulator.table_log import TerminalLog, seating_text

ResultKey = tuple[str, int, int, int, int]
# refusals after which a message goes again (§3); NAK 1 and 2 would refuse it again
AGAIN = (NakCode.UNKNOWN_EPOCH, NakCode.STALE_EPOCH, NakCode.REPLAY, NakCode.BUSY)


class Station(Protocol):
    """What a terminal needs of the base station it is attached to."""

    link: Link

    def send(self, address: int, message: Message) -> None: ...

    def wake(self) -> None: ...


class VirtualTerminal:
    def __init__(
        self,
        address: int,
        serial: str,
        section: str,
        table: int,
        bot: PlayerBot,
        *,
        speed: float = 1.0,
        now_ms: Callable[[], int] | None = None,
        epoch: int | None = None,
        keying_s: float = 0.0,
    ) -> None:
        """``epoch``: that of the first boot, then one more at each (default random: a
        simulated terminal keeps no boot counter, and a random epoch differs from the one
        of its previous run, docs/protocol.md §3). ``keying_s``: how long the players take
        to key a result (in real seconds, before ``speed``), the moment a reboot loses the
        keystrokes."""
        self.address = address
        self.serial = serial
        self.section = section
        self.table = table
        self.bot = bot
        self.speed = speed
        self.keying_s = keying_s
        self.keying: tuple[int, int] | None = None  # (round, board) being keyed now
        self.now_ms = now_ms or (lambda: int(time.time() * 1000))
        self.epoch = 0  # before the first boot
        self._next_epoch = epoch if epoch is not None else random_epoch()
        self.station: Station | None = None
        self.assignment: Assignment | None = None
        self.unacked: dict[ResultKey, Result] = {}
        # per (section, table, round, board): the verification sent, until the hub answers
        self.unverified: dict[tuple[str, int, int, int], Verify] = {}
        self.log = TerminalLog()
        self._assigned = asyncio.Event()
        self.round_done = asyncio.Event()
        self.rounds: int | None = None  # from SETTINGS "rounds"
        self.moves: list[NextSeating] = []  # where the table's pairs were sent
        self.session_over = asyncio.Event()  # NEXT_SEATING past the last round
        self._task: asyncio.Task[None] | None = None
        self._sent_at: dict[tuple[int, int], float] = {}
        self._retried: set[tuple[Message, int | None]] = set()  # (message, hub epoch)
        self._hub_epoch: int | None = None  # the hub's epoch its last HELLO began
        self.battery = 100 - (table * 7) % 40  # terminals come charged unevenly
        self._entered: set[tuple[str, int, int, int]] = set()  # (section, table, round, board)
        self._started_rounds: set[tuple[str, int, int]] = set()
        self.resends = Resends(self.send)  # what goes again later, after which pause

    @property
    def hub_epoch(self) -> int | None:
        """The epoch of the hub's latest HELLO (None: none heard yet)."""
        return self._hub_epoch

    # -- power --------------------------------------------------------------------------------
    def boot(self) -> None:
        """Power on (or reboot): a new epoch, HELLO, LOGON, then everything not yet
        acknowledged again (results and their verifications survive a reboot in the
        terminal's memory)."""
        assert self.station is not None
        self.epoch, self._next_epoch = self._next_epoch, self._next_epoch % 0xFFFFFFFF + 1
        self.station.link.set_epoch(self.address, self.epoch)
        self.station.link.greet(self.address)  # HELLO, sequence 1 of the new epoch
        self.send(Logon(self.serial, self.section, self.table, "sim-1"))
        self.send(Status(self.battery, 90, 0))
        for result in list(self.unacked.values()):
            self.send(result)
        waiting = {key[:4] for key in self.unacked}  # a verification goes after its result
        for key, verify in list(self.unverified.items()):
            if key not in waiting:
                self.send(verify)

    def reboot(self) -> None:
        """Power off and on now, at any moment. What was keyed but not sent is gone from the
        keypad: the players key that board again. What was sent and not acknowledged
        survives in memory and goes again after HELLO and LOGON (``boot``); resends the old
        power cycle had planned are forgotten. The round under way carries on where it
        was, so the terminal is never left waiting for an assignment it already has."""
        running = self._task is not None and not self._task.done()
        if self._task is not None:
            self._task.cancel()
        self.resends.forget()
        self._retried.clear()
        self.keying = None
        self.log.reboots += 1
        self.boot()
        if running:
            if self.assignment is not None and not self.round_done.is_set():
                self._assigned.set()  # resume the round: boards entered are not played again
            self.start()

    def send(self, message: Message) -> None:
        assert self.station is not None
        self.log.frame("→", message)
        self.station.send(self.address, message)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(
            self.play(), name=f"terminal {self.serial}"
        )

    async def stop(self) -> None:
        self.resends.forget()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # -- the table's play -----------------------------------------------------------------------
    async def play(self) -> None:
        while True:
            await self._assigned.wait()
            self._assigned.clear()
            a = self.assignment
            assert a is not None
            self.round_done.clear()
            if 0 in (a.ns_pair, a.ew_pair):  # a sit-out: nothing to enter this round
                self.round_done.set()
                continue
            if (a.section, a.table, a.round) not in self._started_rounds:
                self._started_rounds.add((a.section, a.table, a.round))
                self.send(RoundStarted(a.section, a.table, a.round, self.now_ms()))
            for board in a.boards:
                if (a.section, a.table, a.round, board) in self._entered:
                    continue  # entered before a reboot
                self.send(BoardStarted(a.section, a.table, a.round, board, self.now_ms()))
                await asyncio.sleep(self.bot.board_minutes() * 60 / self.speed)
                if self.keying_s:
                    self.keying = (a.round, board)
                    await asyncio.sleep(self.keying_s / self.speed)
                    self.keying = None
                now = self._reseated(a)
                if now is None:  # the director made the table a sit-out mid-round
                    break
                a = now
                self._entered.add((a.section, a.table, a.round, board))
                entry = self.bot.play(board)
                keyed = board
                if self.bot.wrong_board(board):
                    keyed = board + 100  # a slip of the finger: held by the hub
                self.enter(a, keyed, entry.contract, entry.declarer, entry.lead, entry.tricks)
                if self.bot.corrects():
                    fix = self.bot.play(board)
                    self.enter(
                        a, keyed, fix.contract, fix.declarer, fix.lead, fix.tricks, revision=2
                    )
                if self.bot.calls_td():
                    self.send(TDCall(a.section, a.table, a.round, 0, "director please"))
            self.round_done.set()

    def enter(
        self,
        a: Assignment,
        board: int,
        contract: str,
        declarer: int,
        lead: str,
        tricks: int,
        revision: int = 1,
    ) -> Result:
        result = Result(
            a.section,
            a.table,
            a.round,
            board,
            a.ns_pair,
            a.ew_pair,
            contract,
            declarer,
            lead,
            tricks,
            self.now_ms(),
            revision,
        )
        self.unacked[(a.section, a.table, a.round, board, revision)] = result
        self._sent_at[(a.round, board)] = time.perf_counter()
        self.send(result)
        # the opponents agree at the table now; the verification goes once the hub has the
        # result (it answers BUSY to one that comes before: docs/protocol.md, NAK 6)
        self.unverified[(a.section, a.table, a.round, board)] = Verify(
            a.section, a.table, a.round, board, 1
        )
        self.battery = max(3, self.battery - 2)  # a board's worth of display and radio
        self.send(Status(self.battery, 90, board))
        return result

    # -- what the hub says -------------------------------------------------------------------
    def on_event(self, ev: Received | Acked | Nacked | GaveUp) -> None:
        assert self.station is not None
        self.log.frame("←", ev)
        if isinstance(ev, Received):
            msg = ev.message
            self.log.received.append(msg)
            if isinstance(msg, ResultView) and self.assignment is not None:
                sent = self._sent_at.get((self.assignment.round, msg.board))
                if sent is not None:
                    self.log.view_s.append(time.perf_counter() - sent)
            if isinstance(msg, Hello) and msg.kind == DeviceKind.HUB:
                self._hub_hello(ev.epoch)
            if isinstance(msg, Settings):
                self._settings(msg)
            elif isinstance(msg, NextSeating):
                self._next_seating(msg)
            elif isinstance(msg, MatchScore):  # a team match's score: VP hundredths
                self.log.shown.append(f"match {msg.home}-{msg.away}: {msg.home_vp}-{msg.away_vp}")
            if isinstance(msg, Assignment):
                self._assign(msg)
            if msg.NEEDS_ACK:
                self.station.link.ack(ev)
                self.station.wake()
        elif isinstance(ev, Acked):
            if isinstance(ev.message, Verify):
                self._verified(ev.message)
            if isinstance(ev.message, Result):
                r = ev.message
                self.resends.taken(r)
                key = (r.section, r.table, r.round, r.board, r.revision)
                if self.unacked.pop(key, None) is None:
                    return  # a second ACK of a result sent twice (around a reboot)
                self.log.last_ack = self.station.link.clock()
                epochs = self.log.acks_by_hub_epoch
                epochs[self._hub_epoch] = epochs.get(self._hub_epoch, 0) + 1
                sent = self._sent_at.get((r.round, r.board))
                if sent is not None:
                    self.log.ack_s.append(time.perf_counter() - sent)
                (self.log.held if ev.outcome is Outcome.HELD else self.log.accepted).append(r)
                verify = self.unverified.get((r.section, r.table, r.round, r.board))
                if verify is not None:  # the result is the hub's: now the verification
                    self.send(verify)
                if ev.text:
                    self.log.shown.append(ev.text)
        elif isinstance(ev, Nacked):
            self.log.refused.append((ev.message, ev.code, ev.text))
            self.log.shown.append(ev.text)
            if ev.code == NakCode.NOT_LOGGED_ON and not isinstance(ev.message, Logon):
                self._log_on_again(ev.message)
                return
            if isinstance(ev.message, Result | Verify | Logon) and ev.code in AGAIN:
                # the hub could not keep it now (BUSY: a result not stored, a verification
                # of a result not stored yet), or the link refused the frame for its epoch
                # or as a replay: nothing was taken, so again after the retransmission pause
                # (§3); what the table keyed is never dropped for it
                self.resends.backoff(ev.message)
                return
            if isinstance(ev.message, Verify):
                self._verified(ev.message)  # answered: the hub says why not
            if isinstance(ev.message, Result) and ev.code >= 16:
                r = ev.message
                self.unacked.pop((r.section, r.table, r.round, r.board, r.revision), None)
                self.unverified.pop((r.section, r.table, r.round, r.board), None)
        elif isinstance(ev, GaveUp):
            self.log.gave_up += 1
            waiting = isinstance(ev.message, Verify) and ev.message in self.unverified.values()
            if isinstance(ev.message, Result | Logon) or waiting:  # a HELLO: the link's
                self.resends.later(1.0 / max(self.speed, 1.0), ev.message)

    def _log_on_again(self, message: Message) -> None:
        """ "Log on first": the hub does not know this terminal (it restarted, or the log-on
        is still on its way or was lost). Log on again and send ``message`` again: at once
        the first time in a run of the hub, then after the retransmission pause, doubling.
        A result or verification keyed at the table is never dropped for it."""
        key = (message, self._hub_epoch)
        self.send(Logon(self.serial, self.section, self.table, "sim-1"))
        if key not in self._retried:
            self._retried.add(key)
            self.send(message)
            return
        self.resends.backoff(message)

    def _verified(self, v: Verify) -> None:
        """The hub answered the verification of a board: no longer kept for a resend."""
        key = (v.section, v.table, v.round, v.board)
        self.resends.taken(v)
        if self.unverified.get(key) == v:
            del self.unverified[key]

    def _reseated(self, a: Assignment) -> Assignment | None:
        """The round's seating now (the director may have changed it mid-round); None when
        the table sits out now. Another round's assignment leaves ``a`` to be finished."""
        now = self.assignment
        if now is None or (now.section, now.table, now.round) != (a.section, a.table, a.round):
            return a
        return None if 0 in (now.ns_pair, now.ew_pair) else now

    def _assign(self, msg: Assignment) -> None:
        """Take a new round, or the round's seating changed by the director (a late pair
        turns a sit-out into a playing table, a withdrawal the reverse); the same seating
        sent again (a new log-on, a lost one resent) changes nothing. A round under way
        enters its remaining boards for the pairs now assigned, and is not played twice."""
        old = self.assignment
        if old == msg:
            return
        same_round = old is not None and (old.section, old.table, old.round) == (
            msg.section,
            msg.table,
            msg.round,
        )
        self.assignment = msg
        seated = f"NS {msg.ns_pair} EW {msg.ew_pair}"
        if 0 in (msg.ns_pair, msg.ew_pair):
            seated = f"sit out ({seated})"
        self.log.shown.append(f"table {msg.table} round {msg.round}: {seated}")
        sat_out = old is not None and 0 in (old.ns_pair, old.ew_pair)
        if not same_round or sat_out:
            self._assigned.set()

    def _hub_hello(self, epoch: int) -> None:
        """The hub's HELLO: in a new epoch (the hub restarted, and knows no table's
        terminal) log on again at once, even with nothing else to say (§3)."""
        known, self._hub_epoch = self._hub_epoch, epoch
        if known is not None and known != epoch:
            self.send(Logon(self.serial, self.section, self.table, "sim-1"))

    def _settings(self, msg: Settings) -> None:
        for entry in msg.entries:
            if entry.key == "rounds" and entry.value.isdigit():
                self.rounds = int(entry.value)

    def _next_seating(self, msg: NextSeating) -> None:
        """Show where a pair goes (protocol §4); past the last round the session is over."""
        self.moves.append(msg)
        seat = (msg.pair, msg.round, msg.table, bool(msg.seat_ns), msg.opponents, self.rounds)
        self.log.shown.append(seating_text(*seat))
        if msg.table == 0 and self.rounds is not None and msg.round > self.rounds:
            self.session_over.set()
