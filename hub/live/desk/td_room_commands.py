"""The director's commands on the room (decisions D1, D10, D12): the round clock, moving a
section on, TD calls, a replacement terminal, a table's new code for phones, messages to the
tables, slow-play penalties, releasing standings, and the devices read.

``RoomCommands`` belongs to the hub's asyncio loop; store work runs in worker threads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

from hub.api import command_models as cm
from hub.api.feed import Feed
from hub.api.server import CommandError
from hub.event.problems import number_ranges
from hub.live.port.gateway import TerminalGateway
from hub.live.results.intake import Intake
from hub.live.rounds.clock_log import ClockLog
from hub.live.rounds.clock_state import between_rounds
from hub.live.rounds.publication import Publication
from hub.live.rounds.round_controller import RoundRefused
from hub.live.rounds.section_rounds import Rounds
from hub.live.views import LiveViews
from hub.store.store import Store, StoreError
from hub.store.table_codes import TableCode, reissue_code

Args = dict[str, Any]


class WebCodes(Protocol):
    """What the browser terminals' server (``bridgehub run --terminals``) is told of the
    director's table codes: a re-issued code replaces the table's old one at once."""

    def reissued(self, code: TableCode) -> None: ...


def no_web_terminals() -> WebCodes | None:
    """A hub without ``--terminals``: the new code is only stored (for the printed cards)."""
    return None


class RoomCommands:
    """The director's commands on the room; on the hub's loop, store work in worker threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        rounds: Rounds,
        clock_log: ClockLog,
        gateway: TerminalGateway,
        intake: Intake,
        views: LiveViews,
        publication: Publication,
        feed: Feed,
        devices: Callable[[], Args],
        web_codes: Callable[[], WebCodes | None] = no_web_terminals,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.rounds = rounds
        self.clock_log = clock_log
        self.gateway = gateway
        self.intake = intake
        self.views = views
        self.publication = publication
        self.feed = feed
        self.devices = devices
        self.web_codes = web_codes  # the browser terminals' server, when the hub runs one

    # -- the round clock ---------------------------------------------------------------------
    async def cmd_pause(self, args: cm.Pause, actor: str) -> Args:
        return await self._clock(args.section, "pause")

    async def cmd_resume(self, args: cm.Resume, actor: str) -> Args:
        return await self._clock(args.section, "resume")

    async def cmd_adjust_clock(self, args: cm.AdjustClock, actor: str) -> Args:
        return await self._clock(args.section, "adjust", args.seconds)

    async def cmd_extend(self, args: cm.Extend, actor: str) -> Args:
        return await self._clock(args.section, "extend", args.minutes)

    async def cmd_start_break(self, args: cm.StartBreak, actor: str) -> Args:
        """BCS-like: between rounds the break starts now; asked during a round it starts
        when the round ends (the next round's clock waits for it): said in the answer."""
        section, minutes = args.section, args.minutes
        state = self.rounds.sections[section]
        now = self.rounds.clock()
        if state.waiting:
            raise CommandError(
                f"round {state.round} of section {section} has not started: start its clock "
                "when the room is ready (a break before the first round is not needed)"
            )
        if between_rounds(state, now):
            return {**await self._clock(section, "start_break", minutes), "starts": "now"}
        try:
            state.clock.break_after_round(minutes, now)
        except ValueError as e:
            raise CommandError(str(e)) from None
        await self.clock_log.record(section, "break_after", now, state.round, minutes)
        self.feed.publish("break_scheduled", section=section, round=state.round, minutes=minutes)
        return {
            "starts": f"when round {state.round} ends",
            "round": state.round,
            "minutes": minutes,
        }

    async def _clock(self, section: str, action: str, value: float | None = None) -> Args:
        """The clock changes (it refuses a value it cannot keep), and what it shows is
        worked out before the change is stored: nothing unreadable reaches the store."""
        clock = self.rounds.sections[section].clock
        now = self.rounds.clock()
        try:
            getattr(clock, action)(*(() if value is None else (value,)), now)
        except ValueError as e:
            raise CommandError(str(e)) from None
        show = clock.show(now)
        assert show is not None  # a round has started: the clock refused otherwise
        await self.clock_log.record(section, action, now, value=value)
        phase = show.phase.name.lower()
        self.feed.publish("clock", section=section, phase=phase, seconds_left=show.seconds_left)
        return {"phase": phase, "seconds_left": show.seconds_left}

    async def cmd_start_clock(self, args: cm.StartClock, actor: str) -> Args:
        """Start the current round's clock from now (the room is seated and ready): its
        time, warnings and the slow-play measure count from this moment."""
        section = args.section
        state = self.rounds.sections[section]
        if state.movement.layout.undrawn(state.round):  # D19: the tables have no seats yet
            raise CommandError(
                f"round {state.round} of section {section} is not drawn yet: publish its "
                "draw first (the console's D key)"
            )
        try:
            now = await self.rounds.start_clock(section, args.restart)
        except RoundRefused as e:
            raise CommandError(str(e)) from None
        rnd = self.rounds.current(section)
        show = self.rounds.sections[section].clock.show(now)
        assert show is not None
        self.feed.publish(
            "clock",
            section=section,
            round=rnd,
            phase=show.phase.name.lower(),
            seconds_left=show.seconds_left,
        )
        return {"round": rnd, "seconds_left": show.seconds_left}

    async def cmd_next_round(self, args: cm.NextRound, actor: str) -> Args:
        """Move the section to its next round now, whether or not every table is done."""
        try:
            return await self.rounds.next_round(args.section)
        except RoundRefused as e:
            raise CommandError(str(e)) from None

    # -- the room --------------------------------------------------------------------------
    async def cmd_devices(self, args: cm.Devices, actor: str) -> Args:
        """Base stations (link counters), terminals (table, battery, last heard), clock
        displays and the hub's own tasks."""
        return self.devices()

    async def cmd_td_call(self, args: cm.TdCall, actor: str) -> Args:
        call, status, note, ruling = args.call, args.status, args.note, args.ruling
        try:
            await asyncio.to_thread(
                self.store.update_td_call, self.event_id, call, status, actor, note, ruling
            )
        except StoreError as e:
            raise CommandError(str(e)) from None
        self.feed.publish("td_call", call=call, status=status, note=note, ruling=ruling)
        return {}

    async def cmd_allow_takeover(self, args: cm.AllowTakeover, actor: str) -> Args:
        """The TD confirms (with the PIN, i.e. this session) that another terminal may take
        over a held table at its next log-on. A table the section does not have is refused,
        naming the section's tables (a typo must not pass as done, issue 12)."""
        self._check_table(args.section, args.table)
        self.intake.allow_takeover(args.section, args.table)
        return {}

    async def cmd_reissue_table_code(self, args: cm.ReissueTableCode, actor: str) -> Args:
        """A new code for the table's phones (issue 15: a lost phone): stored, audited
        (``table_code_reissued``, without the code), told to the browser terminals' server
        when the hub runs one, and replied so the director can print or read it out."""
        self._check_table(args.section, args.table)
        try:
            code = await asyncio.to_thread(self._reissue_in_store, args.section, args.table, actor)
        except StoreError as e:
            raise CommandError(str(e)) from None
        web = self.web_codes()
        if web is not None:
            web.reissued(code)
        return {
            "section": code.section,
            "table": code.table,
            "code": code.code,
            "generation": code.generation,
        }

    def _reissue_in_store(self, section: str, table: int, actor: str) -> TableCode:
        code = reissue_code(self.store, self.event_id, section, table)
        detail = {"section": section, "table": table, "generation": code.generation}
        self.store.audit(self.event_id, actor, "table_code_reissued", detail)
        return code

    def _check_table(self, section: str, table: int) -> None:
        """A table the section does not have is refused, naming the section's tables."""
        tables = self.rounds.sections[section].movement.tables(section)
        if table not in tables:
            raise CommandError(
                f"section {section} has no table {table}: its tables are {number_ranges(tables)}"
            )

    async def cmd_message(self, args: cm.Message, actor: str) -> Args:
        """A message to every terminal, or to one section's."""
        return {"terminals": self.gateway.broadcast(args.text, args.section)}

    # -- penalties and standings -----------------------------------------------------------
    async def cmd_confirm_penalty(self, args: cm.ConfirmPenalty, actor: str) -> Args:
        """Confirm a proposed penalty, saying who pays: NS, EW, both or shared."""
        return await self._decide(args.penalty, True, actor, args.payer)

    async def cmd_waive_penalty(self, args: cm.WaivePenalty, actor: str) -> Args:
        return await self._decide(args.penalty, False, actor, None)

    async def cmd_add_penalty(self, args: cm.AddPenalty, actor: str) -> Args:
        """A penalty the director gives: to the sides at the table in that round."""
        state = self.rounds.sections[args.section]
        row = state.movement.row(args.section, args.table, args.round)
        if row is None or not (row.ns_pair and row.ew_pair):
            raise CommandError(
                f"table {args.section}{args.table} has no match or pairs in round {args.round}"
                ": a penalty is given to the sides that play there"
            )
        try:
            amount = Fraction(args.amount)
        except ZeroDivisionError:
            raise CommandError(f"amount: {args.amount!r} divides by zero") from None
        if not amount:
            raise CommandError("a penalty of 0 changes nothing: give the amount")
        if self.views.unit(args.section) == "VP" and args.unit == "percent_of_top":
            raise CommandError(
                f"section {args.section} is scored in VPs: a team penalty is in VP or IMP"
            )
        pid = await asyncio.to_thread(
            self.store.propose_penalty,
            self.event_id,
            args.section,
            row.ns_pair,
            args.amount,
            args.unit,
            args.reason,
            args.table,
            args.round,
            row.ew_pair,
        )
        return {"penalty": pid, **await self._decide(pid, True, actor, args.payer)}

    async def _decide(self, pid: int, confirm: bool, actor: str, payer: str | None) -> Args:
        try:
            penalties = await asyncio.to_thread(self._decide_in_store, pid, confirm, actor, payer)
        except StoreError as e:
            raise CommandError(str(e)) from None
        penalty = next(p for p in penalties if p["id"] == pid)
        applied = confirm and self.views.apply_penalty(penalty)
        self.feed.publish(
            "penalty_decided", id=pid, status=penalty["status"], payer=payer, applied=applied
        )
        if applied:
            await self.publication.publish(penalty["section"])
        return {"status": penalty["status"], "applied_to_standings": applied}

    def _decide_in_store(
        self, pid: int, confirm: bool, actor: str, payer: str | None
    ) -> list[dict[str, Any]]:
        self.store.decide_penalty(self.event_id, pid, confirm, actor, payer)
        return self.store.penalties(self.event_id)

    async def cmd_release_standings(self, args: cm.ReleaseStandings, actor: str) -> Args:
        """Publish now, with the boards still open marked provisional (decisions D12)."""
        return {"provisional": await self.publication.release(args.section, actor)}
