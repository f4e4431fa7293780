"""The director's commands on results (decisions D1, D9): accept or reject a held result,
enter a result or an artificial score, erase one, mark a suspicious score valid, read a
board's traveller. A result the director enters or accepts for a table finishes that board
at the table, as if its terminal had entered it.

``ResultCommands`` belongs to the hub's asyncio loop; store work runs in worker threads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hub.api import command_models as cm
from hub.api.feed import Feed
from hub.api.server import CommandError
from hub.event.result_key import KeyVerdict, check_key
from hub.live import round_controller as rc
from hub.live.publication import Publication
from hub.live.rounds import Rounds
from hub.live.scores import Scores
from hub.store.store import ResultEntry, Store, StoreError
from scoring.contract import parse_play
from scoring.errors import ScoringInputError
from scoring.traveller import Artificial

Args = dict[str, Any]


class ResultCommands:
    """The director's commands on results; on the hub's loop, store work in worker threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        rounds: Rounds,
        scores: Scores,
        publication: Publication,
        feed: Feed,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.rounds = rounds
        self.scores = scores
        self.publication = publication
        self.feed = feed
        self.clock = clock

    async def changed(
        self, section: str, board: int, why: str, table: int, rnd: int, finished: bool
    ) -> None:
        """After a director's change: the board rescored and shown, the table's round moved
        on (``finished``) or opened again, and withheld standings released if now clear."""
        await self.scores.changed(section, board, why, table, rnd)
        if finished:
            await self.rounds.handle(section, rc.DirectorEntered(table, rnd, board, self.clock()))
        else:
            await self.rounds.handle(section, rc.Erased(table, rnd, board))
        await self.publication.publish_if_clear(section)

    async def cmd_accept_held(self, args: cm.AcceptHeld, actor: str) -> Args:
        rekey = args.rekey.model_dump(exclude_none=True) if args.rekey else {}
        result = args.result
        try:
            stored = await asyncio.to_thread(
                self.store.decide_held, self.event_id, result, True, actor, rekey
            )
        except StoreError as e:
            raise CommandError(str(e)) from None
        assert stored is not None
        self.feed.publish("held_accepted", result=result, board=stored.board)
        await self.changed(
            stored.section, stored.board, "accepted_held", stored.table, stored.round, True
        )
        return {"result": stored.id, "board": stored.board}

    async def cmd_reject_held(self, args: cm.RejectHeld, actor: str) -> Args:
        result = args.result
        try:
            await asyncio.to_thread(self.store.decide_held, self.event_id, result, False, actor)
        except StoreError as e:
            raise CommandError(str(e)) from None
        self.feed.publish("held_rejected", result=result)
        for section in self.rounds.sections:
            await self.publication.publish_if_clear(section)
        return {}

    async def cmd_enter_result(self, args: cm.EnterResult, actor: str) -> Args:
        """A result from the TD (a dead terminal, a paper slip), or an artificial score."""
        section, table, rnd, board = args.section, args.table, args.round, args.board
        ns, ew = args.ns_pair, args.ew_pair
        movement = self.rounds.sections[section].movement
        key = check_key(movement, section, table, rnd, board, ns, ew)
        if key.verdict is not KeyVerdict.OK:
            raise CommandError(key.reason)
        where = (section, table, rnd, board, ns, ew)
        try:
            if args.adjusted:
                Artificial.parse(args.adjusted)
                entry = ResultEntry(*where, adjusted=args.adjusted, entered_by=actor)
            else:
                play = parse_play(args.contract, args.declarer, args.result)
                entry = ResultEntry(
                    *where,
                    contract=str(play.contract) if play.contract else "PASS",
                    declarer=play.declarer.name if play.declarer else None,
                    tricks=play.tricks,
                    entered_by=actor,
                )
        except ScoringInputError as e:
            raise CommandError(e.message) from None
        try:
            stored = (await asyncio.to_thread(self.store.record, self.event_id, [entry]))[0]
        except StoreError as e:
            raise CommandError(str(e)) from None
        await self.changed(section, board, "td_entry", table, rnd, True)
        return {"result": stored.id, "revision": stored.revision}

    async def cmd_erase_result(self, args: cm.EraseResult, actor: str) -> Args:
        section, table, rnd, board = args.section, args.table, args.round, args.board
        row = self.rounds.sections[section].movement.row(section, table, rnd)
        if row is None:
            raise CommandError(f"section {section} has no table {table} in round {rnd}")
        entry = ResultEntry(
            section, table, rnd, board, row.ns_pair, row.ew_pair, erased=True, entered_by=actor
        )
        try:
            await asyncio.to_thread(self.store.record, self.event_id, [entry])
        except StoreError as e:
            raise CommandError(str(e)) from None
        await self.changed(section, board, "erased", table, rnd, False)
        return {}

    async def cmd_contract_valid(self, args: cm.ContractValid, actor: str) -> Args:
        """The director checked a suspicious-score flag and the result stands ("contract is
        valid"); a later change to that result is checked afresh."""
        section, board, table, rnd = args.section, args.board, args.table, args.round
        suspicious = self.scores.suspicious
        mark = suspicious.mark_valid(section, board, table, rnd)
        if mark is None:
            raise CommandError(
                f"no suspicious-score flag is open on board {board} at table "
                f"{section}{table} round {rnd}"
            )
        await asyncio.to_thread(
            self.store.audit, self.event_id, actor, "contract_valid", {"mark": list(mark)}
        )
        self.scores.publish_flags(section, board)
        await self.publication.publish_if_clear(section)
        return {"open": len(suspicious.board_flags(section, board))}

    async def cmd_traveller(self, args: cm.Traveller, actor: str) -> Args:
        """Every live result on a board with both sides' scores, for the TD to check."""
        section, board = args.section, args.board
        results = [
            r
            for r in await asyncio.to_thread(self.store.live_results, self.event_id, section)
            if r.board == board
        ]
        scored = self.scores.views.scored_board(section, board)
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
