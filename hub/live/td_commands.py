"""The TD's commands through the API (decisions D1): clock, held results, entering,
erasing and adjusting results, TD calls, table takeover, publishing standings. Every
command is audited with the TD's session."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from hub.api.server import CommandError
from hub.event.result_key import KeyVerdict, check_key
from hub.store.store import ResultEntry, StoreError
from scoring.contract import parse_play
from scoring.errors import ScoringInputError
from scoring.traveller import Artificial

if TYPE_CHECKING:
    from hub.live.service import HubService


def _section(service: HubService, args: dict[str, Any]) -> str:
    section = str(args.get("section", ""))
    if section not in service.sections:
        raise CommandError(
            f"section {section!r} is not in this event ({', '.join(service.sections)})"
        )
    return section


def _int(args: dict[str, Any], key: str) -> int:
    try:
        return int(args[key])
    except (KeyError, TypeError, ValueError):
        raise CommandError(f"{key}: a whole number is required") from None


def _num(args: dict[str, Any], key: str) -> float:
    try:
        return float(args[key])
    except (KeyError, TypeError, ValueError):
        raise CommandError(f"{key}: a number is required") from None


class Commands:
    def __init__(self, service: HubService) -> None:
        self.s = service

    async def dispatch(self, name: str, args: dict[str, Any], actor: str) -> dict[str, Any]:
        handler = getattr(self, f"cmd_{name}", None)
        if handler is None:
            known = sorted(n[4:] for n in dir(self) if n.startswith("cmd_"))
            raise CommandError(f"unknown command {name!r}: use {', '.join(known)}")
        result = await handler(args, actor)
        await asyncio.to_thread(
            self.s.store.audit,
            self.s.event_id,
            actor,
            f"command {name}",
            {k: str(v) for k, v in args.items()},
        )
        return result or {}

    # -- clock ----------------------------------------------------------------------------------
    async def cmd_pause(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        return self._clock(args, "pause")

    async def cmd_resume(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        return self._clock(args, "resume")

    async def cmd_adjust_clock(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        return self._clock(args, "adjust", _num(args, "seconds"))

    async def cmd_extend(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        return self._clock(args, "extend", _num(args, "minutes"))

    async def cmd_start_break(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        return self._clock(args, "start_break", _num(args, "minutes"))

    async def cmd_start_clock(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """Start the current round's clock from now (the room is seated and ready): its
        time, warnings and the slow-play measure count from this moment."""
        section = _section(self.s, args)
        state = self.s.sections[section]
        now = self.s.clock()
        state.clock.start_round(state.round, now)
        await asyncio.to_thread(self.s.record_clock, section, "start", now, state.round)
        show = state.clock.show(now)
        assert show is not None
        self.s.feed.publish(
            "clock",
            section=section,
            round=state.round,
            phase=show.phase.name.lower(),
            seconds_left=show.seconds_left,
        )
        return {"round": state.round, "seconds_left": show.seconds_left}

    async def cmd_next_round(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """Move the section to its next round now, whether or not every table is done."""
        section = _section(self.s, args)
        try:
            return await self.s.next_round(section)
        except ValueError as e:
            raise CommandError(str(e)) from None

    def _clock(
        self, args: dict[str, Any], action: str, value: float | None = None
    ) -> dict[str, Any]:
        section = _section(self.s, args)
        clock = self.s.sections[section].clock
        now = self.s.clock()
        try:
            getattr(clock, action)(*(() if value is None else (value,)), now)
        except ValueError as e:
            raise CommandError(str(e)) from None
        self.s.record_clock(section, action, now, value=value)
        show = clock.show(now)
        assert show is not None  # a round has started: the clock refused otherwise
        self.s.feed.publish(
            "clock", section=section, phase=show.phase.name.lower(), seconds_left=show.seconds_left
        )
        return {"phase": show.phase.name.lower(), "seconds_left": show.seconds_left}

    # -- results --------------------------------------------------------------------------------
    async def cmd_accept_held(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        rekey = {
            k: int(v)
            for k, v in (args.get("rekey") or {}).items()
            if k in ("board", "ns_pair", "ew_pair", "table", "round")
        }
        try:
            stored = await asyncio.to_thread(
                self.s.store.decide_held, self.s.event_id, _int(args, "result"), True, actor, rekey
            )
        except StoreError as e:
            raise CommandError(str(e)) from None
        assert stored is not None
        self.s.feed.publish("held_accepted", result=_int(args, "result"), board=stored.board)
        await self.s.result_changed(
            stored.section, stored.board, "accepted_held", stored.table, stored.round
        )
        return {"result": stored.id, "board": stored.board}

    async def cmd_reject_held(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        try:
            await asyncio.to_thread(
                self.s.store.decide_held, self.s.event_id, _int(args, "result"), False, actor
            )
        except StoreError as e:
            raise CommandError(str(e)) from None
        self.s.feed.publish("held_rejected", result=_int(args, "result"))
        for section in self.s.sections:
            await self.s.publication.publish_if_clear(section)
        return {}

    async def cmd_enter_result(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """A result from the TD (a dead terminal, a paper slip), or an artificial score."""
        section = _section(self.s, args)
        table, rnd, board = _int(args, "table"), _int(args, "round"), _int(args, "board")
        ns, ew = _int(args, "ns_pair"), _int(args, "ew_pair")
        movement = self.s.sections[section].movement
        key = check_key(movement, section, table, rnd, board, ns, ew)
        if key.verdict is not KeyVerdict.OK:
            raise CommandError(key.reason)
        try:
            if args.get("adjusted"):
                Artificial.parse(str(args["adjusted"]))
                entry = ResultEntry(
                    section,
                    table,
                    rnd,
                    board,
                    ns,
                    ew,
                    adjusted=str(args["adjusted"]),
                    entered_by=actor,
                )
            else:
                play = parse_play(
                    str(args.get("contract", "")),
                    str(args.get("declarer", "")),
                    str(args.get("result", "")),
                )
                entry = ResultEntry(
                    section,
                    table,
                    rnd,
                    board,
                    ns,
                    ew,
                    contract=str(play.contract) if play.contract else "PASS",
                    declarer=play.declarer.name if play.declarer else None,
                    tricks=play.tricks,
                    entered_by=actor,
                )
        except ScoringInputError as e:
            raise CommandError(e.message) from None
        stored = (await asyncio.to_thread(self.s.store.record, self.s.event_id, [entry]))[0]
        await self.s.result_changed(section, board, "td_entry", table, rnd)
        return {"result": stored.id, "revision": stored.revision}

    async def cmd_erase_result(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        section = _section(self.s, args)
        table, rnd, board = _int(args, "table"), _int(args, "round"), _int(args, "board")
        row = self.s.sections[section].movement.row(section, table, rnd)
        if row is None:
            raise CommandError(f"section {section} has no table {table} in round {rnd}")
        entry = ResultEntry(
            section, table, rnd, board, row.ns_pair, row.ew_pair, erased=True, entered_by=actor
        )
        try:
            await asyncio.to_thread(self.s.store.record, self.s.event_id, [entry])
        except StoreError as e:
            raise CommandError(str(e)) from None
        await self.s.result_changed(section, board, "erased", table, rnd)
        return {}

    async def cmd_contract_valid(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """The director checked a suspicious-score flag and the result stands ("contract is
        valid"); a later change to that result is checked afresh."""
        section, board = _section(self.s, args), _int(args, "board")
        table, rnd = _int(args, "table"), _int(args, "round")
        mark = self.s.suspicious.mark_valid(section, board, table, rnd)
        if mark is None:
            raise CommandError(
                f"no suspicious-score flag is open on board {board} at table "
                f"{section}{table} round {rnd}"
            )
        await asyncio.to_thread(
            self.s.store.audit, self.s.event_id, actor, "contract_valid", {"mark": list(mark)}
        )
        self.s.publish_suspicious(section, board)
        await self.s.publication.publish_if_clear(section)
        return {"open": len(self.s.suspicious.board_flags(section, board))}

    async def cmd_traveller(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """Every live result on a board with both sides' scores, for the TD to check."""
        section, board = _section(self.s, args), _int(args, "board")
        results = [
            r
            for r in await asyncio.to_thread(self.s.store.live_results, self.s.event_id, section)
            if r.board == board
        ]
        scored = self.s.views.board(section, board)
        by_pairs = {
            (sl.line.ns, sl.line.ew): sl for sl in (scored.scored_lines() if scored else [])
        }
        rows = []
        for r in sorted(results, key=lambda r: (r.round, r.table)):
            sl = by_pairs.get((r.ns_pair, r.ew_pair))
            rows.append(
                {
                    "table": r.table,
                    "round": r.round,
                    "ns": r.ns_pair,
                    "ew": r.ew_pair,
                    "contract": r.contract,
                    "declarer": r.declarer,
                    "lead": r.lead,
                    "tricks": r.tricks,
                    "score_ns": r.score_ns,
                    "adjusted": r.adjusted,
                    "entered_by": r.entered_by,
                    "revision": r.revision,
                    "ns_score": None if sl is None else float(sl.ns_score),
                    "ew_score": None if sl is None else float(sl.ew_score),
                }
            )
        return {"section": section, "board": board, "results": rows}

    async def cmd_devices(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """Base stations (link counters) and terminals (table, battery, last heard)."""
        return self.s.devices()

    # -- room -----------------------------------------------------------------------------------
    async def cmd_td_call(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        try:
            await asyncio.to_thread(
                self.s.store.update_td_call,
                self.s.event_id,
                _int(args, "call"),
                str(args.get("status", "")),
                actor,
                args.get("note"),
            )
        except StoreError as e:
            raise CommandError(str(e)) from None
        self.s.feed.publish("td_call", call=_int(args, "call"), status=args.get("status"))
        return {}

    async def cmd_allow_takeover(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """The TD confirms (with the PIN, i.e. this session) that another terminal may take
        over a held table at its next log-on."""
        section = _section(self.s, args)
        self.s.intake.allow_takeover(section, _int(args, "table"))
        return {}

    async def cmd_confirm_penalty(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """Confirm a proposed penalty, saying who pays: NS, EW, both or shared."""
        payer = str(args.get("payer", ""))
        if payer not in ("NS", "EW", "both", "shared"):
            raise CommandError("payer: NS, EW, both or shared (in proportion: half each)")
        return await self._decide(_int(args, "penalty"), True, actor, payer)

    async def cmd_waive_penalty(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        return await self._decide(_int(args, "penalty"), False, actor, None)

    async def _decide(
        self, pid: int, confirm: bool, actor: str, payer: str | None
    ) -> dict[str, Any]:
        try:
            await asyncio.to_thread(
                self.s.store.decide_penalty, self.s.event_id, pid, confirm, actor, payer
            )
        except StoreError as e:
            raise CommandError(str(e)) from None
        penalty = next(
            p
            for p in await asyncio.to_thread(self.s.store.penalties, self.s.event_id)
            if p["id"] == pid
        )
        applied = confirm and self.s.views.apply_penalty(penalty)
        self.s.feed.publish(
            "penalty_decided", id=pid, status=penalty["status"], payer=payer, applied=applied
        )
        if applied:
            await self.s.publication.publish(penalty["section"])
        return {"status": penalty["status"], "applied_to_standings": applied}

    async def cmd_message(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """A message to every terminal, or to one section's."""
        text = str(args.get("text", "")).strip()
        if not text:
            raise CommandError("text: the message is empty")
        section = _section(self.s, args) if args.get("section") else None
        return {"terminals": self.s.broadcast(text, section)}

    async def cmd_release_standings(self, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """Publish now, with the boards still open marked provisional (decisions D12)."""
        section = _section(self.s, args)
        return {"provisional": await self.s.publication.release(section, actor)}
