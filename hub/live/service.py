"""The running hub: base-station drivers, intake, the store and live views on one asyncio
loop. Blocking store calls run in a worker thread so the loop keeps serving the lines.

This is the core of ``bridgehub run``; the TD's API (decisions D1) and the console attach
to it later (issues [HUB], [CONSOLE]).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drivers.base_station import BaseStationDriver, LineDown, LineUp
from drivers.clock.driver import ClockDriver
from drivers.protocol.link import Received, Refused
from drivers.protocol.messages import (
    Assignment,
    BoardStarted,
    Clock,
    Hello,
    Logon,
    NakCode,
    Outcome,
    PlayerName,
    PlayerNumber,
    Result,
    ResultView,
    RoundStarted,
    Status,
    TDCall,
    TDMessage,
    TerminalJoined,
    TravellerEntry,
    Verify,
)
from hub.api.feed import Feed
from hub.api.server import ApiServer
from hub.event.hand_records import makeable_tricks
from hub.event.movement.model import Movement
from hub.live.intake import Intake, IntakeResult, Pending, Verdict
from hub.live.live_views import LiveViews, is_imps, own_line, value_hundredths
from hub.live.publication import Publication
from hub.live.round_clock import RoundClock, RoundTiming
from hub.live.slow_play import TableRound, lateness_minutes, minutes_off_pace, propose
from hub.live.suspicious_scores import SuspiciousScores
from hub.live.td_commands import Commands
from hub.store.store import Store, StoredResult

log = logging.getLogger(__name__)
SEAT_CODE = {"N": 0, "E": 1, "S": 2, "W": 3}


@dataclass
class Seat:
    """Where a terminal is: which line, which address, which table."""

    driver: BaseStationDriver
    address: int
    serial: str
    section: str | None = None
    table: int | None = None
    online: bool = True
    battery: int | None = None  # percent, from the terminal's STATUS
    signal: int | None = None
    last_seen: float | None = None  # hub clock


@dataclass
class SectionState:
    movement: Movement
    clock: RoundClock
    round: int = 1
    tables: dict[tuple[int, int], TableRound] = field(default_factory=dict)
    finished_rounds: set[int] = field(default_factory=set)


class HubService:
    def __init__(
        self,
        store: Store,
        event_id: int,
        station_urls: list[str],
        *,
        clock: Callable[[], float] = time.time,
        auto_advance: bool = True,
        clock_displays: list[tuple[str, str]] | None = None,
        tick_s: float = 1.0,
        api: tuple[str, int] | None = None,
        td_pin: str = "",
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.intake = Intake(store, event_id)
        self.clock = clock
        self.auto_advance = auto_advance
        self.drivers = [BaseStationDriver(url) for url in station_urls]
        self.displays = [ClockDriver(url, protocol) for protocol, url in clock_displays or []]
        self.tick_s = tick_s
        self.clock_sync_s = 30.0
        self._told: dict[str, tuple[int, object]] = {}
        self._next_sync: dict[str, float] = {}
        self.seats: dict[tuple[int, int], Seat] = {}
        self.sections: dict[str, SectionState] = {}
        self.alerts: list[str] = []
        self.session_done = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._results: asyncio.Queue[tuple[Seat, Received, Result]] = asyncio.Queue()
        self._verified: set[tuple[str, int, int, int]] = set()
        self._unverified: set[tuple[str, int, int, int]] = set()
        self.feed = Feed()
        self._proposed: dict[tuple[str, int], set[int]] = {}
        self.publication = Publication(self)
        self.behind_every_s = 10.0
        self._behind_sent: dict[str, dict[int, float]] = {}
        self._next_behind = 0.0
        self.commands = Commands(self)
        self.api: ApiServer | None = None
        if api is not None:
            self.api = ApiServer(
                self.feed, self.snapshot, self.commands.dispatch, td_pin, host=api[0], port=api[1]
            )

    # -- lifecycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        event = await asyncio.to_thread(self.store.event, self.event_id)
        timing = RoundTiming(
            event.rules.timing.minutes_per_board,
            event.rules.timing.move_minutes,
            event.rules.timing.round_up_to_minutes,
            event.rules.timing.extra_minutes,
        )
        self.event = event
        winners: dict[str, int] = {}
        clock_records = await asyncio.to_thread(self.store.clock_events, self.event_id)
        for letter in await asyncio.to_thread(self.store.sections, self.event_id):
            movement = await asyncio.to_thread(self.store.movement, self.event_id, letter)
            boards = {
                r: len(movement.round_rows(r, letter)[0].boards)
                for r in range(1, movement.rounds + 1)
            }
            winners[letter] = movement.layout.winners
            state = SectionState(movement, RoundClock(timing, boards))
            state.round = await asyncio.to_thread(self._resume_round, letter, movement)
            now = self.clock()
            # after a restart the round clock goes on from the stored clock events (and a
            # round the director moved on to stays current)
            mine = [
                c for c in clock_records if c["section"] == letter and c["at"].timestamp() <= now
            ]
            state.clock.replay(mine)
            started = [c["round"] for c in mine if c["kind"] == "start" and c["round"]]
            state.round = max([state.round, *started[-1:]])
            if state.clock.official_start(state.round) is None:
                state.clock.start_round(state.round, now)
                await asyncio.to_thread(self.record_clock, letter, "start", now, state.round)
            self.sections[letter] = state
        self.views = LiveViews(self.store, self.event_id, event, winners)
        await asyncio.to_thread(self.views.load)
        await asyncio.to_thread(self._load_suspicious)
        await asyncio.to_thread(self.publication.load)
        await asyncio.to_thread(self.intake.live_index)
        loop = asyncio.get_running_loop()
        for k, driver in enumerate(self.drivers):
            driver.start()
            self._tasks.append(loop.create_task(self._serve(k, driver)))
        for display in self.displays:
            display.start()
        self._tasks.append(loop.create_task(self._tick()))
        self._tasks.append(loop.create_task(self._writer()))
        limits = self.suspicious.limits
        solving = limits is not None and limits.double_dummy is not None
        if solving:  # it checks the waiting standings itself once every deal is solved
            self._tasks.append(loop.create_task(self._solve_deals()))
        if self.api is not None:
            await self.api.start()
        if not solving:
            for letter in self.sections:  # a round finished before a restart, unpublished
                await self.publication.publish_if_clear(letter)

    async def stop(self) -> None:
        if self.api is not None:
            await self.api.stop()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for driver in self.drivers:
            await driver.stop()
        for display in self.displays:
            await display.stop()

    async def _tick(self) -> None:
        """Once a second: the round clock to every display and every seated terminal."""
        while True:
            now = self.clock()
            for letter, state in self.sections.items():
                show = state.clock.show(now)
                if show is None:
                    continue
                for display in self.displays:
                    display.show(show)
                self.feed.publish(
                    "clock",
                    section=letter,
                    round=show.round,
                    phase=show.phase.name.lower(),
                    seconds_left=show.seconds_left,
                )
                # terminals count down themselves: tell them when the phase changes, and
                # every clock_sync_s to stay in step (not 200 frames a second)
                key = (show.round, show.phase)
                if key != self._told.get(letter) or now >= self._next_sync.get(letter, 0):
                    self._told[letter] = key
                    self._next_sync[letter] = now + self.clock_sync_s
                    msg = Clock(letter, show.round, int(show.phase), show.seconds_left)
                    for seat in self.seats.values():
                        if seat.section == letter:
                            seat.driver.send(seat.address, msg)
            if now >= self._next_behind:
                self._next_behind = now + self.behind_every_s
                for letter in self.sections:
                    self._publish_behind(letter, now)
            await asyncio.sleep(self.tick_s)

    def _load_suspicious(self) -> None:
        """Suspicious-score flags from the stored results and the director's earlier
        "contract is valid" marks (after a restart, the same flags are open)."""
        marks = [
            tuple(a["detail"]["mark"])
            for a in self.store.audit_log(self.event_id, "contract_valid")
        ]
        self.suspicious = SuspiciousScores(self.event.rules.suspicious.limits(), marks)
        for line in self.store.live_lines(self.event_id):
            self.suspicious.put(line)

    async def _solve_deals(self) -> None:
        """Double-dummy tables of the hand records, one deal at a time in a worker thread;
        each board is checked again as its table arrives."""
        deals = await asyncio.to_thread(self.store.hand_records, self.event_id)
        for board, deal in sorted(deals.items()):
            try:
                makeable = await asyncio.to_thread(makeable_tricks, deal)
            except Exception:
                log.exception("double dummy of board %d failed; its check is skipped", board)
                continue
            for section, b in self.suspicious.deal_solved(board, makeable):
                self.publish_suspicious(section, b)
        for letter in self.sections:  # standings waiting since a restart: checked in full
            await self.publication.publish_if_clear(letter)

    def publish_suspicious(self, section: str, board: int) -> None:
        """A board's flags changed: the full list for the board goes to the feed (empty when
        none is open any more)."""
        self.feed.publish(
            "suspicious",
            section=section,
            board=board,
            flags=[f.as_dict() for f in self.suspicious.board_flags(section, board)],
        )

    def _resume_round(self, section: str, movement: Movement) -> int:
        """After a restart: the first round not yet complete in the store."""
        live = {
            (r.table, r.round, r.board) for r in self.store.live_results(self.event_id, section)
        }
        for rnd in range(1, movement.rounds + 1):
            for row in movement.round_rows(rnd, section):
                if (
                    row.ns_pair
                    and row.ew_pair
                    and any((row.table, rnd, b) not in live for b in row.boards)
                ):
                    return rnd
        return movement.rounds

    # -- lines ----------------------------------------------------------------------------------
    async def _serve(self, k: int, driver: BaseStationDriver) -> None:
        while True:
            ev = await driver.events.get()
            try:
                await self._handle(k, driver, ev)
            except Exception:  # one bad message must not stop the room
                log.exception("event %r from %s", ev, driver.url)

    def record_clock(
        self, section: str, kind: str, at: float, rnd: int | None = None, value: float | None = None
    ) -> None:
        """Store what the round clock did, at the hub's time, so a result screen (or a
        later audit) can replay the clock exactly."""
        self.store.add_clock_event(
            self.event_id,
            kind,
            section,
            rnd,
            {"value": value} if value is not None else {},
            at=dt.datetime.fromtimestamp(at, dt.UTC),
        )

    def devices(self) -> dict[str, Any]:
        """Base stations with their link counters, every terminal (where it is, its battery
        and signal, when the hub last heard from it) and the clock displays."""
        now = self.clock()
        stations = [
            {
                "url": d.url,
                "connected": d.connected.is_set(),
                "reconnects": d.reconnects,
                **d.link.stats,
            }
            for d in self.drivers
        ]
        terminals = [
            {
                "station": k,
                "address": addr,
                "serial": seat.serial,
                "section": seat.section,
                "table": seat.table,
                "online": seat.online,
                "battery": seat.battery,
                "signal": seat.signal,
                "seconds_ago": None if seat.last_seen is None else round(now - seat.last_seen, 1),
            }
            for (k, addr), seat in sorted(self.seats.items())
            if addr
        ]
        clocks = [
            {
                "url": d.url,
                "protocol": d.protocol,
                "connected": d.connected.is_set(),
                "reconnects": d.reconnects,
            }
            for d in self.displays
        ]
        return {"stations": stations, "terminals": terminals, "clocks": clocks}

    def _battery(self, section: str, table: int) -> int | None:
        levels = [
            seat.battery
            for seat in self.seats.values()
            if seat.section == section and seat.table == table and seat.battery is not None
        ]
        return min(levels) if levels else None

    def _online(self, section: str, table: int) -> bool:
        """A terminal is logged on at the table and its line is up."""
        return any(
            seat.online and seat.section == section and seat.table == table
            for seat in self.seats.values()
        )

    async def _handle(self, k: int, driver: BaseStationDriver, ev: object) -> None:
        if isinstance(ev, LineUp | LineDown):
            log.info("%s: %s", driver.url, type(ev).__name__)
            if isinstance(ev, LineDown):  # its tables are out of reach until they log on again
                for gone in self.seats.values():
                    if gone.driver is driver and gone.table is not None and gone.online:
                        gone.online = False
                        self.feed.publish(
                            "table_online", section=gone.section, table=gone.table, online=False
                        )
            return
        if isinstance(ev, Refused):  # stale epoch, replay, bad payload: logged with the device
            seat = self.seats.get((k, ev.terminal))
            who = seat.serial if seat else f"{driver.url}#{ev.terminal}"
            log.warning("refused a frame from %s: %s", who, ev.reason)
            await asyncio.to_thread(
                self.store.audit,
                self.event_id,
                who,
                "frame_refused",
                {"code": ev.code.name, "reason": ev.reason, "epoch": ev.epoch, "seq": ev.seq},
            )
            return
        if not isinstance(ev, Received):
            return
        m = ev.message
        seat = self.seats.get((k, ev.terminal))
        if seat is not None:
            seat.last_seen = self.clock()
        if isinstance(m, Hello | TerminalJoined):
            if seat is None:
                seat = self.seats[(k, ev.terminal)] = Seat(driver, ev.terminal, m.serial)
            await asyncio.to_thread(
                self.store.touch_device,
                self.event_id,
                "terminal" if ev.terminal else "base_station",
                m.serial,
            )
            if m.NEEDS_ACK:
                driver.ack(ev)
            return
        if seat is None:
            seat = self.seats[(k, ev.terminal)] = Seat(
                driver, ev.terminal, f"addr-{k}-{ev.terminal}"
            )
        if isinstance(m, Logon):
            seat.serial = m.serial
            verdict = await asyncio.to_thread(
                self.intake.logon, m.serial, m.section, m.table, False
            )
            if verdict.verdict is Verdict.REFUSED:
                driver.nak(ev, verdict.code or NakCode.NOT_ALLOWED, verdict.text)
                return
            seat.section, seat.table, seat.online = m.section, m.table, True
            driver.ack(ev, Outcome.OK, verdict.text)
            self.feed.publish("table_online", section=m.section, table=m.table, online=True)
            self._assign(seat)
            await self._maybe_next_round(m.section)  # a restarted hub may find it complete
            return
        if isinstance(m, Result):
            self._results.put_nowait((seat, ev, m))  # the writer commits in groups
            return
        if isinstance(m, TDCall):
            call = await asyncio.to_thread(
                self.store.open_td_call, self.event_id, m.section, m.table, m.round, m.text
            )
            self.alerts.append(f"TD call at table {m.section}{m.table}")
            self.feed.publish(
                "td_call",
                call=call,
                section=m.section,
                table=m.table,
                round=m.round,
                status="launched",
                text=m.text,
            )
        elif isinstance(m, RoundStarted | BoardStarted):
            state = self.sections.get(m.section)
            tr = state.tables.get((m.table, m.round)) if state else None
            if tr is not None and tr.first_action_at is None:
                tr.first_action_at = self.clock()
        elif isinstance(m, Verify):
            await self._verify(m)
        elif isinstance(m, PlayerNumber):
            await self._player_number(seat, m)
        elif isinstance(m, Status):
            was = seat.battery
            seat.battery, seat.signal = m.battery_percent, m.signal_percent
            if seat.table is not None and (was is None or was // 10 != seat.battery // 10):
                self.feed.publish(
                    "battery", section=seat.section, table=seat.table, percent=seat.battery
                )
            await asyncio.to_thread(self.store.touch_device, self.event_id, "terminal", seat.serial)
        if m.NEEDS_ACK:
            driver.ack(ev)

    async def _player_number(self, seat: Seat, m: PlayerNumber) -> None:
        """A player keyed a member number: stored for the pair at that seat, and the name,
        if the event knows it, goes back to the terminal."""
        state = self.sections.get(m.section)
        row = state.movement.row(m.section, m.table, m.round) if state else None
        if row is None or m.seat > 3:
            return
        pair = row.ns_pair if m.seat in (0, 2) else row.ew_pair
        index = 0 if m.seat in (0, 1) else 1
        name = None
        for c in await asyncio.to_thread(self.store.contestants, self.event_id, m.section):
            for player in c["players"]:
                if player.get("number") == m.number:
                    name = player.get("name")
        await asyncio.to_thread(
            self.store.set_player,
            self.event_id,
            m.section,
            pair,
            index,
            name=name,
            number=m.number,
            actor=seat.serial,
        )
        seat.driver.send(
            seat.address, PlayerName(m.section, m.table, m.round, m.seat, m.number, name or "")
        )

    def broadcast(self, text: str, section: str | None = None, beep: bool = True) -> int:
        """A director's message to every terminal (of a section)."""
        count = 0
        for seat in self.seats.values():
            if seat.table is not None and section in (None, seat.section):
                seat.driver.send(seat.address, TDMessage(text[:300], int(beep)))
                count += 1
        return count

    def _assign(self, seat: Seat) -> None:
        assert seat.section is not None and seat.table is not None
        state = self.sections[seat.section]
        row = state.movement.row(seat.section, seat.table, state.round)
        if row is None:
            return
        if (row.table, state.round) not in state.tables:
            tr = TableRound(
                seat.section, row.table, state.round, row.boards, row.ns_pair, row.ew_pair
            )
            stored = self.intake.live_index()  # after a restart: what is already stored
            for b in row.boards:
                if (seat.section, row.table, state.round, b) in stored:
                    tr.finished_at[b] = self.clock()
            state.tables[(row.table, state.round)] = tr
        seat.driver.send(
            seat.address,
            Assignment(seat.section, seat.table, state.round, row.ns_pair, row.ew_pair, row.boards),
        )
        show = state.clock.show(self.clock())
        if show is not None:  # a table that just logged on needs the clock now
            seat.driver.send(
                seat.address, Clock(seat.section, show.round, int(show.phase), show.seconds_left)
            )

    async def _writer(self) -> None:
        """Results from every line, stored in groups: each durable commit is followed by the
        ACKs of all the results it holds (decisions D11: group commit)."""
        while True:
            batch = [await self._results.get()]
            while not self._results.empty() and len(batch) < 256:
                batch.append(self._results.get_nowait())
            try:
                answers = await asyncio.to_thread(self._check_and_store, batch)
            except Exception:
                log.exception("storing %d results failed; the terminals will resend", len(batch))
                continue
            for (seat, ev, m), out in zip(batch, answers, strict=True):
                try:
                    await self._answer_result(seat, ev, m, out)
                except Exception:
                    log.exception("answering result %r", m)

    def _check_and_store(self, batch: list[tuple[Seat, Received, Result]]) -> list[IntakeResult]:
        prepared = [self.intake.prepare(seat.serial, m) for seat, _, m in batch]
        pending = [p for p in prepared if isinstance(p, Pending)]
        stored = iter(self.intake.commit(pending) if pending else [])
        return [p if isinstance(p, IntakeResult) else next(stored) for p in prepared]

    async def _answer_result(self, seat: Seat, ev: Received, m: Result, out: IntakeResult) -> None:
        if out.verdict is Verdict.REFUSED:
            seat.driver.nak(ev, out.code or NakCode.INVALID_RESULT, out.text)
            return
        outcome = {
            Verdict.ACCEPTED: Outcome.ACCEPTED,
            Verdict.HELD: Outcome.HELD,
            Verdict.DUPLICATE: Outcome.DUPLICATE,
        }[out.verdict]
        seat.driver.ack(ev, outcome, out.text)
        if out.alert:
            self.alerts.append(out.alert)
            self.feed.publish(
                "alert",
                text=out.alert,
                table=m.table,
                round=m.round,
                board=m.board,
                result=out.stored.id if out.stored else None,
                held=out.verdict is Verdict.HELD,
            )
        if out.stored is not None and out.verdict is not Verdict.DUPLICATE:
            self.feed.publish(
                "result",
                section=m.section,
                table=m.table,
                round=m.round,
                board=m.board,
                status=out.verdict.value,
                id=out.stored.id,
            )
        if out.verdict is Verdict.ACCEPTED and out.stored is not None:
            self._show_result(seat, out.stored)
            if self.suspicious.put(out.stored.line()):
                self.publish_suspicious(m.section, m.board)
            key = (m.section, m.table, m.round, m.board)
            if self.event.rules.display.verification == "none" or key in self._verified:
                await self._board_finished(m.section, m.table, m.round, m.board)
            else:
                self._unverified.add(key)

    def _show_result(self, seat: Seat, stored: StoredResult) -> None:
        """Rescore the board; send the table its own score and the traveller (only after
        the board was played there, and only if the event shows travellers)."""
        if self.views.result_stored(stored.line()) is None:
            return
        if self.event.rules.display.travellers == "never":
            return
        view = self._result_view(stored.section, stored.board, stored.table, stored.round)
        if view is not None:
            seat.driver.send(seat.address, view)

    def _result_view(self, section: str, board: int, table: int, rnd: int) -> ResultView | None:
        """The table's own score on a board and the board's traveller as scored now."""
        score = self.views.board(section, board)
        if score is None:
            return None
        lines = list(self.views.sections[section].lines[board].values())
        mine = own_line(score, lines, table, rnd)
        if mine is None:
            return None
        entries = []
        for i, x in enumerate(lines):
            t = score.traveller.lines[i]
            entries.append(
                TravellerEntry(
                    x.ns_pair,
                    x.ew_pair,
                    x.contract or "",
                    SEAT_CODE.get(x.declarer or "", 255),
                    x.tricks if x.tricks is not None else 255,
                    t.score_ns or 0,
                    value_hundredths(score, i),
                )
            )
        return ResultView(
            section,
            board,
            score.traveller.lines[mine].score_ns or 0,
            value_hundredths(score, mine),
            1 if is_imps(score) else 0,
            tuple(entries[:64]),
        )

    async def _verify(self, m: Verify) -> None:
        """The opponents' verification (decisions D10: a board is finished when its result
        is entered and verified). A rejection goes to the director."""
        key = (m.section, m.table, m.round, m.board)
        if not m.agreed:
            text = (
                f"the opponents rejected the result of board {m.board} at table "
                f"{m.section}{m.table}"
            )
            self.alerts.append(text)
            self.feed.publish(
                "alert",
                text=text,
                table=m.table,
                round=m.round,
                board=m.board,
                result=None,
                held=False,
            )
            return
        self._verified.add(key)
        if key in self._unverified:
            self._unverified.discard(key)
            await self._board_finished(*key)

    async def _board_finished(self, section: str, table: int, rnd: int, board: int) -> None:
        state = self.sections[section]
        tr = state.tables.get((table, rnd))
        if tr is not None and board in tr.boards:
            tr.finished_at[board] = self.clock()
            if tr.done:
                await self._slow_play(section, tr)
        await self._maybe_next_round(section)

    async def _slow_play(self, section: str, tr: TableRound) -> None:
        """The table finished its round: propose the event's slow-play penalty if it was
        late (decisions D10); the TD confirms, saying who pays, or waives."""
        if tr.round in self._proposed.setdefault((section, tr.table), set()):
            return
        self._proposed[(section, tr.table)].add(tr.round)
        scale = self.event.penalty_scale("slow_play")
        state = self.sections[section]
        start = state.clock.official_start(tr.round)
        if scale is None or start is None:
            return
        late = lateness_minutes(tr, start, state.clock.allowed_seconds(tr.round))
        if late is None or late <= 0:
            return
        earlier = sum(
            1
            for p in await asyncio.to_thread(self.store.penalties, self.event_id)
            if p["status"] == "confirmed"
            and p["unit"] != "warning"
            and set(p["contestants"]) & {tr.ns_pair, tr.ew_pair}
        )
        proposal = propose(tr, scale, late, earlier + 1)
        if proposal is None:
            return
        pid = await asyncio.to_thread(
            self.store.propose_penalty,
            self.event_id,
            section,
            tr.ns_pair,
            str(proposal.penalty.amount),
            proposal.penalty.unit.value,
            proposal.text,
            tr.table,
            tr.round,
            tr.ew_pair,
        )
        self.feed.publish(
            "penalty_proposed",
            id=pid,
            section=section,
            table=tr.table,
            round=tr.round,
            text=proposal.text,
        )

    # -- the TD's view ------------------------------------------------------------------------
    async def result_changed(
        self, section: str, board: int, why: str, table: int | None = None, rnd: int | None = None
    ) -> None:
        """A TD act changed a board: rescore it, check it again, tell the feed, and show the
        new traveller at the tables still in the round where they played it."""
        self.intake.invalidate()
        await asyncio.to_thread(self.views.reload_board, section, board)
        lines = await asyncio.to_thread(self.store.live_lines, self.event_id, section)
        if self.suspicious.reload(section, board, [x for x in lines if x.board == board]):
            self.publish_suspicious(section, board)
        self.feed.publish("board_changed", section=section, board=board, why=why)
        self._tell_tables(section, board, why, table, rnd)
        await self.publication.publish_if_clear(section)

    def _tell_tables(
        self, section: str, board: int, why: str, table: int | None, rnd: int | None
    ) -> None:
        """After a TD change: the fresh traveller to every table of the current round that
        has played the board, and a message to the table whose result changed."""
        state = self.sections[section]
        if table is not None and rnd == state.round:
            tr = state.tables.get((table, rnd))
            played = self.suspicious.played(section, board)
            if tr is not None and (table, rnd) not in played:  # erased: open again
                tr.finished_at.pop(board, None)
            text = {
                "erased": f"The director erased board {board}: enter it again",
                "td_entry": f"The director entered a result on board {board}",
                "accepted_held": f"The director accepted your result on board {board}",
            }.get(why, f"The director changed board {board}")
            for seat in self._seats_at(section, table):
                seat.driver.send(seat.address, TDMessage(text, 1))
        if self.event.rules.display.travellers == "never":
            return
        for t, r in sorted(self.suspicious.played(section, board)):
            if r != state.round:
                continue
            view = self._result_view(section, board, t, r)
            if view is not None:
                for seat in self._seats_at(section, t):
                    seat.driver.send(seat.address, view)

    def _seats_at(self, section: str, table: int) -> list[Seat]:
        return [
            seat for seat in self.seats.values() if seat.section == section and seat.table == table
        ]

    def standings_rows(self, section: str) -> list[dict[str, Any]]:
        if section not in self.views.sections:
            return []
        rows: list[dict[str, Any]] = []
        for direction, table in self.views.standings(section).items():
            for s in table:
                rows.append(
                    {
                        "pair": s.pair.number,
                        "direction": direction,
                        "total": round(float(s.total.total), 4),
                        "rank": s.rank,
                        "boards": s.total.boards,
                        "points": round(float(s.total.points), 4),
                        "top": s.total.top,
                    }
                )
        return rows

    def behind(self, section: str, now: float) -> dict[int, float]:
        """Minutes behind (+) or ahead (−) of an even pace of each table in the current
        round (tenths)."""
        state = self.sections[section]
        per_board = state.clock.timing.minutes_per_board * 60
        start = state.clock.official_start(state.round) or now
        out = {}
        for row in state.movement.round_rows(state.round, section):
            tr = state.tables.get((row.table, state.round))
            out[row.table] = (
                0.0 if tr is None else round(minutes_off_pace(tr, start, per_board, now), 1)
            )
        return out

    def _publish_behind(self, section: str, now: float) -> None:
        """Lateness grows with time, not only with results: the tables whose minutes behind
        changed go to the feed (every ``behind_every_s``)."""
        last = self._behind_sent.setdefault(section, {})
        changed = [(t, m) for t, m in self.behind(section, now).items() if last.get(t) != m]
        if changed:
            last.update(changed)
            self.feed.publish(
                "behind", section=section, round=self.sections[section].round, tables=changed
            )

    def snapshot(self) -> dict[str, object]:
        """Everything a console needs to draw the room now."""
        now = self.clock()
        sections = {}
        for letter, state in self.sections.items():
            show = state.clock.show(now)
            lateness = self.behind(letter, now)
            tables = []
            for row in state.movement.round_rows(state.round, letter):
                tr = state.tables.get((row.table, state.round))
                done = 0 if tr is None else sum(1 for b in row.boards if b in tr.finished_at)
                behind = lateness.get(row.table, 0.0)
                online = self._online(letter, row.table)
                unverified = sum(
                    1 for b in row.boards if (letter, row.table, state.round, b) in self._unverified
                )
                tables.append(
                    {
                        "table": row.table,
                        "ns": row.ns_pair,
                        "ew": row.ew_pair,
                        "boards": list(row.boards),
                        "done": done,
                        "unverified": unverified,
                        "minutes_behind": behind,
                        "online": online,
                        "battery": self._battery(letter, row.table),
                    }
                )
            finish = state.clock.predicted_finish(now, state.movement.rounds)
            sections[letter] = {
                "round": state.round,
                "rounds": state.movement.rounds,
                "predicted_finish": finish,
                "clock": None
                if show is None
                else {"phase": show.phase.name.lower(), "seconds_left": show.seconds_left},
                "tables": tables,
                "standings": self.standings_rows(letter),
            }
        held = [
            {"id": r.id, "section": r.section, "table": r.table, "round": r.round, "board": r.board}
            for r in self.store.results(self.event_id)
            if r.status == "held"
        ]
        return {
            "event": self.event.event.name,
            "sections": sections,
            "held": held,
            "suspicious": [f.as_dict() for f in self.suspicious.all_flags()],
            "withheld": dict(self.publication.withheld),
            "td_calls": self.store.td_calls(self.event_id),
            "alerts": self.alerts[-50:],
            "penalties": self.store.penalties(self.event_id),
        }

    async def _maybe_next_round(self, section: str) -> None:
        """When every table has finished the round: publish, then start the next round.
        Everything that decides happens before the first await, so a round completes (and
        the next starts) exactly once, however many boards finish at the same moment."""
        state = self.sections[section]
        rnd = state.round
        if rnd in state.finished_rounds:
            return
        rows = [r for r in state.movement.round_rows(rnd, section) if r.ns_pair and r.ew_pair]
        if not all(
            (r.table, rnd) in state.tables and state.tables[(r.table, rnd)].done for r in rows
        ):
            return
        await self._complete_round(section, self.auto_advance)

    async def next_round(self, section: str) -> dict[str, Any]:
        """The director moves the section on: the current round ends now (boards not
        played are reported for the director's scores) and the next one starts."""
        state = self.sections[section]
        rnd = state.round
        if rnd >= state.movement.rounds:
            raise ValueError(f"round {rnd} is the last round of section {section}")
        if rnd in state.finished_rounds:  # complete, waiting for the director
            started = self._advance(section)
            await self._announce_round(section, started)
            return {"round": state.round, "unplayed": []}
        unplayed = []
        for r in state.movement.round_rows(rnd, section):
            tr = state.tables.get((r.table, rnd))
            missing = [b for b in r.boards if tr is None or b not in tr.finished_at]
            if r.ns_pair and r.ew_pair and missing:
                unplayed.append({"table": r.table, "boards": missing})
        await self._complete_round(section, True, unplayed)
        return {"round": state.round, "unplayed": unplayed}

    def _advance(self, section: str) -> float:
        """The next round starts now: its clock, and every seated terminal's assignment."""
        state = self.sections[section]
        state.round += 1
        started = self.clock()
        state.clock.start_round(state.round, started)
        for seat in self.seats.values():
            if seat.section == section and seat.table is not None:
                self._assign(seat)
        return started

    async def _announce_round(self, section: str, started: float) -> None:
        state = self.sections[section]
        rnd = state.round
        await asyncio.to_thread(self.record_clock, section, "start", started, rnd)
        self._behind_sent[section] = {r.table: 0.0 for r in state.movement.round_rows(rnd, section)}
        self.feed.publish(
            "round_started",
            section=section,
            round=rnd,
            tables=[
                {
                    "table": r.table,
                    "ns": r.ns_pair,
                    "ew": r.ew_pair,
                    "boards": list(r.boards),
                    "done": 0,
                    "minutes_behind": 0.0,
                    "unverified": 0,
                    "online": self._online(section, r.table),
                    "battery": self._battery(section, r.table),
                }
                for r in state.movement.round_rows(rnd, section)
            ],
        )

    async def _complete_round(
        self, section: str, advance: bool, unplayed: list[dict[str, Any]] | None = None
    ) -> None:
        """The round is over: start the next (if ``advance``), then publish its standings
        unless its boards have open questions (decisions D12)."""
        state = self.sections[section]
        rnd = state.round
        state.finished_rounds.add(rnd)
        last = rnd >= state.movement.rounds
        started = self._advance(section) if advance and not last else None
        if last and all(
            s.round in s.finished_rounds and s.round >= s.movement.rounds
            for s in self.sections.values()
        ):
            self.session_done.set()
        self.feed.publish("round_complete", section=section, round=rnd, unplayed=unplayed or [])
        if unplayed:
            text = (
                f"round {rnd} of section {section} ended by the director; not played: "
                + ", ".join(
                    f"table {u['table']} boards {', '.join(map(str, u['boards']))}"
                    for u in unplayed
                )
            )
            self.alerts.append(text)
            self.feed.publish(
                "alert", text=text, table=None, round=rnd, board=None, result=None, held=False
            )
        await self.publication.round_complete(section, rnd)
        if started is not None:
            await self._announce_round(section, started)
