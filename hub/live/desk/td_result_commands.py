"""The director's commands on results (decisions D1, D9; the director's desk of issue
[EVENING]): accept or reject a held result, enter a score for any table, round and board
(a result, an artificial or a weighted score; one or a whole traveller of them), erase one,
mark a suspicious score valid, read a board's traveller. A result the director enters or
accepts for a table finishes that board at the table, as if its terminal had entered it; a
rejected one is asked again of the table.

``ResultCommands`` belongs to the hub's asyncio loop; store work runs in worker threads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from hub.api import command_models as cm
from hub.api import desk_models as dm
from hub.api.feed import Feed
from hub.api.server import CommandError
from hub.event.double_dummy import HandRecordError
from hub.live.desk.desk_entries import DeskRefusal, desk_entry, where
from hub.live.desk.traveller_rows import traveller_rows
from hub.live.port.gateway import TerminalGateway
from hub.live.results.scores import Scores
from hub.live.rounds import round_controller as rc
from hub.live.rounds.publication import Publication
from hub.live.rounds.section_rounds import Rounds
from hub.store.store import ResultEntry, Store, StoreError

Args = dict[str, Any]
log = logging.getLogger(__name__)


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
        # the terminals, to ask a table again for a result the director rejected
        self.gateway: TerminalGateway | None = scores.gateway
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

    async def cmd_accept_held(self, args: dm.AcceptHeld, actor: str) -> Args:
        """Accept a held result: the terminal stays its author, the director is recorded
        as accepting it; replacing a live result needs ``replace`` (TD trial F7)."""
        rekey = args.rekey.model_dump(exclude_none=True) if args.rekey else {}
        result = args.result
        try:
            stored = await asyncio.to_thread(
                self.store.decide_held, self.event_id, result, True, actor, rekey, args.replace
            )
        except StoreError as e:
            raise CommandError(str(e)) from None
        assert stored is not None
        self.feed.publish(  # where it was played too: the Room counts its board done
            "held_accepted", result=result, board=stored.board, section=stored.section,
            table=stored.table, round=stored.round,
        )  # fmt: skip
        await self.changed(
            stored.section, stored.board, "accepted_held", stored.table, stored.round, True
        )
        return {"result": stored.id, "board": stored.board}

    async def cmd_reject_held(self, args: cm.RejectHeld, actor: str) -> Args:
        """Turn a held result down; its table is asked to enter the board again (TD trial
        F4: the table was left waiting, with no word)."""
        result = args.result
        held = next(
            (
                r
                for r in await asyncio.to_thread(self.store.results, self.event_id)
                if r.id == result
            ),
            None,
        )
        try:
            await asyncio.to_thread(self.store.decide_held, self.event_id, result, False, actor)
        except StoreError as e:
            raise CommandError(str(e)) from None
        self.feed.publish("held_rejected", result=result)
        told = False
        if held is not None and self.gateway is not None:
            text = (
                f"board {held.board}: your result was not accepted by the director; enter it again"
            )
            self.gateway.message_table(held.section, held.table, text)
            told = bool(self.gateway.at_table(held.section, held.table))
        for section in self.rounds.sections:
            await self.publication.publish_if_clear(section)
        return {"table_told": told}

    def _movements(self) -> dict[str, Any]:
        return {letter: state.movement for letter, state in self.rounds.sections.items()}

    async def cmd_enter_result(self, args: dm.EnterResult, actor: str) -> Args:
        """A score for any table, round and board: a result (a dead terminal, a paper
        slip), an artificial score or a weighted one, played or not (TD trial F4)."""
        try:
            entry = desk_entry(self._movements(), args, actor)
        except DeskRefusal as e:
            raise CommandError(str(e)) from None
        try:
            stored = (await asyncio.to_thread(self.store.record, self.event_id, [entry]))[0]
        except StoreError as e:
            raise CommandError(str(e)) from None
        await self.changed(entry.section, entry.board, "td_entry", entry.table, entry.round, True)
        return {"result": stored.id, "revision": stored.revision}

    async def cmd_enter_results(self, args: dm.EnterResults, actor: str) -> Args:
        """A paper traveller or a round's slips: every entry checked first, the good ones
        stored in one commit, a reply per entry (stored, or refused with the reason)."""
        movements = self._movements()
        replies: list[dict[str, Any]] = []
        good: list[tuple[int, ResultEntry]] = []
        seen: set[tuple[str, int, int, int]] = set()
        for i, line in enumerate(args.entries):
            try:
                entry = desk_entry(movements, line, actor)
                if entry.key in seen:
                    raise DeskRefusal(f"{where(line)} is given twice in these entries")
            except DeskRefusal as e:
                replies.append({"index": i, "status": "refused", "reason": str(e), "result": None})
                continue
            seen.add(entry.key)
            good.append((i, entry))
            replies.append({"index": i, "status": "stored", "reason": None, "result": None})
        stored = []
        if good:
            try:
                stored = await asyncio.to_thread(
                    self.store.record, self.event_id, [e for _, e in good]
                )
            except StoreError as e:
                for i, _ in good:
                    replies[i].update(status="refused", reason=str(e))
                good = []
        for (i, _), st in zip(good, stored, strict=True):
            replies[i]["result"] = st.id
        await self._settle([e for _, e in good])
        return {
            "entries": replies,
            "stored": len(good),
            "refused": len(replies) - len(good),
        }

    async def _settle(self, entries: list[ResultEntry]) -> None:
        """After a batch: each board read back and rescored once, each table's board
        finished, withheld standings released if now clear."""
        for section, board in sorted({(e.section, e.board) for e in entries}):
            await self.scores.changed(section, board, "td_entry", None, None)
        for e in entries:
            await self.rounds.handle(
                e.section, rc.DirectorEntered(e.table, e.round, e.board, self.clock())
            )
        for section in sorted({e.section for e in entries}):
            await self.publication.publish_if_clear(section)

    async def cmd_erase_result(self, args: cm.EraseResult, actor: str) -> Args:
        """Erase the live result of a board at a table and round; its table enters the board
        again. A board with no live result is refused, named."""
        section, table, rnd, board = args.section, args.table, args.round, args.board
        row = self.rounds.sections[section].movement.row(section, table, rnd)
        if row is None:
            raise CommandError(f"section {section} has no table {table} in round {rnd}")
        key = [(section, table, rnd, board)]
        if not await asyncio.to_thread(self.store.live_at, self.event_id, key):
            raise CommandError(  # nothing to erase: say so, never a silent OK (issue 12)
                f"board {board} has no result to erase at table {section}{table} in round {rnd}"
            )
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
        """Every live result on a board as the director checks it (TD trial F14)."""
        section, board = args.section, args.board
        results = [
            r
            for r in await asyncio.to_thread(self.store.live_results, self.event_id, section)
            if r.board == board
        ]
        scored = self.scores.views.scored_board(section, board)
        return {
            "section": section,
            "board": board,
            "results": traveller_rows(results, scored),
            "double_dummy": await self._double_dummy(section, board),
        }

    async def _double_dummy(self, section: str, board: int) -> dict[str, Any] | None:
        """The board's makeable contracts and par from its hand record: the file's or the
        hub's solution, else solved on the hand records' worker (decisions D17; cached per
        deal); None without a hand record or endplay."""
        deal = self.scores.intake.deals.get((section, board))
        if deal is None:
            return None
        known = self.scores.hands.solutions.get((section, board))  # the file's, or solved
        if known is not None and known.deal == deal:
            return known.as_dict()
        try:
            return (await self.scores.solver.solution(deal, board)).as_dict()
        except HandRecordError as e:
            log.warning("board %d's traveller has no double dummy: %s", board, e)
        except Exception:  # the traveller goes out without it whatever DDS makes of the deal
            log.exception("double dummy of board %d failed", board)
        return None
