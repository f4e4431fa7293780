"""The director replaces a session's hand records while the hub runs (TD trial F3): the
stored file was rotated or of another set (``hand_record_check`` tells the TD so). The new
deals are stored, the leads are checked against them from now on, and every result held
only because its lead was not in the leader's hand is checked again: one whose lead now
fits is accepted (as the TD would), the others stay held.

``HandRecordCommands`` belongs to the hub's asyncio loop; parsing and the store run in
worker threads.
"""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from hub.api import command_models as cm
from hub.api.feed import Feed
from hub.api.server import CommandError
from hub.event.event_file import EventFile
from hub.event.hand_record_tricks import double_dummy_tricks
from hub.event.hand_records import HandRecordError, check_deals, read_hand_records
from hub.event.result_key import KeyVerdict, check_key
from hub.live.oversight.alerts import Alerts
from hub.live.results.hand_record_fit import coverage_refusal, leads_refusal, span, stored_leads_fit
from hub.live.results.intake import Intake
from hub.live.results.scores import Scores
from hub.store.board_deals import replace_hand_records
from hub.store.store import Store, StoredResult
from scoring.board import Seat
from scoring.deal import opening_leader, parse_deal

log = logging.getLogger(__name__)
Dispatch = Callable[[str, dict[str, Any], str], Awaitable[dict[str, Any]]]


def parse_pbn_text(text: str) -> dict[int, str]:
    """Board → deal of a PBN file's text (``HandRecordError`` saying what is wrong)."""
    fd, name = tempfile.mkstemp(suffix=".pbn")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return read_hand_records(Path(name))
    except HandRecordError as e:
        text = str(e).replace(f"hand records {name}: ", "")
        text = text.replace(f"hand records {name} are", "the file is")
        raise HandRecordError(text.replace(f"hand records {name} hold", "the file holds")) from None
    finally:
        os.unlink(name)


def lead_fits(deal: str | None, declarer: str | None, lead: str | None) -> bool | None:
    """Is the lead in the opening leader's hand by ``deal``? None when it cannot be told."""
    if deal is None or declarer is None or lead is None:
        return None
    return lead in parse_deal(deal)[opening_leader(Seat.parse(declarer))]


class HandRecordCommands:
    """``load_hand_records``, on the hub's loop; ``dispatch`` (the hub's command
    dispatcher, set once it exists) accepts the held results that now fit, through the
    same road as the TD's."""

    def __init__(self, scores: Scores, alerts: Alerts) -> None:
        self.store: Store = scores.store
        self.event_id = scores.event_id
        self.event: EventFile = scores.event
        self.intake: Intake = scores.intake
        self.scores = scores
        self.alerts = alerts
        self.feed: Feed = scores.feed
        self.dispatch: Dispatch | None = None
        self._solving: set[asyncio.Task[None]] = set()
        # F3: the verdict on the hand records (rotated, another set) reaches the director
        self.intake.on_notice = lambda section, text: alerts.raise_(text, section=section)

    async def cmd_load_hand_records(self, args: cm.LoadHandRecords, actor: str) -> dict[str, Any]:
        sessions = self.event.sessions
        if args.session is None and len(sessions) > 1:
            raise CommandError(f"this event has {len(sessions)} sessions: say which (session)")
        index = (args.session or 1) - 1
        if index >= len(sessions):
            raise CommandError(f"session {index + 1}: this event has {len(sessions)} session(s)")
        try:
            deals = check_deals(await asyncio.to_thread(parse_pbn_text, args.pbn))
        except HandRecordError as e:
            raise CommandError(str(e)) from None
        letters = [s.letter for s in sessions[index].sections]
        played = sorted(
            {
                b
                for x in letters
                if x in self.intake.movements
                for b in self.intake.movements[x].boards()
            }
        )
        missing = [b for b in played if b not in deals]
        if played and len(missing) == len(played):
            raise CommandError(
                f"the file holds boards {span(sorted(deals))}; session {index + 1} plays boards "
                f"{span(played)}: none of them is in the file"
            )
        fit = stored_leads_fit(deals, await asyncio.to_thread(self._stored, set(letters)))
        if not args.force:  # G11: a wrong file never silently replaces the published deals
            refused = coverage_refusal(sorted(deals), played, index + 1) or leads_refusal(fit)
            if refused is not None:
                log.warning("hand records refused: %s", refused)
                raise CommandError(refused)
        old = dict(self.intake.deals)
        tricks = await asyncio.to_thread(double_dummy_tricks, args.pbn)  # not solved again
        await asyncio.to_thread(
            replace_hand_records, self.store, self.event_id, index, deals, actor, tricks
        )
        new = {(x, b): d for x in letters for b, d in deals.items()}
        kept = {k: d for k, d in self.intake.deals.items() if k[0] not in letters}
        self.intake.load(list(self.intake.live.values()), kept | new)
        for letter in letters:  # the leads are checked against the new file from now on
            self.intake.hand_check.reset(letter)
        self._solve_again(new, {(x, b): d for x in letters for b, d in tricks.items()})
        accepted, still = await self._recheck(set(letters), old, new, actor)
        text = (
            f"hand records of session {index + 1} replaced ({len(deals)} boards)"
            + (f"; boards {span(missing)} are not in the file" if missing else "")
            + (
                f"; loaded with force: {fit.misfits} of {fit.checked} stored opening leads "
                "are not in the leader's hand by it"
                if fit.misfits
                else ""
            )
            + f": {len(accepted)} result(s) held for their lead now fit and were accepted"
            + (f", {len(still)} still held (results {', '.join(map(str, still))})" if still else "")
        )
        log.warning(text)
        self.alerts.raise_(text)
        self.feed.publish(
            "hand_records_loaded",
            session=index + 1,
            boards=len(deals),
            missing=missing,
            accepted=accepted,
            still_held=still,
        )
        return {
            "boards": len(deals),
            "missing": missing,
            "accepted": accepted,
            "still_held": still,
            "leads": {"checked": fit.checked, "not_in_hand": fit.misfits},
        }

    def _solve_again(
        self, deals: dict[tuple[str, int], str], tricks: dict[tuple[str, int], str]
    ) -> None:
        """The new deals' double dummy (in the background; the file's ``tricks`` where it
        has them): for the suspicious-score check and the tables' hand records."""
        for section in {s for s, _ in deals}:  # its old deals' solution still running stops
            self.scores.deals_loaded[section] = self.scores.deals_loaded.get(section, 0) + 1
        limits = self.scores.suspicious.limits
        checked = limits is not None and limits.double_dummy is not None
        if not checked and not self.scores.travellers_shown:
            return
        task = asyncio.ensure_future(self.scores.solve_deals(deals, tricks))
        self._solving.add(task)
        task.add_done_callback(self._solving.discard)

    async def _recheck(
        self,
        sections: set[str],
        old: dict[tuple[str, int], str],
        new: dict[tuple[str, int], str],
        actor: str,
    ) -> tuple[list[int], list[int]]:
        """Held results whose lead did not fit the old deal: accepted when it fits the new
        one, the key is the movement's and no other live result holds the key."""
        held = await asyncio.to_thread(self._held, sections)
        accepted: list[int] = []
        still: list[int] = []
        for r in held:
            where = (r.section, r.board)
            if lead_fits(old.get(where), r.declarer, r.lead) is not False:
                continue  # held for another reason: the director decides
            if not lead_fits(new.get(where), r.declarer, r.lead) or not self._clean(r):
                still.append(r.id)
                continue
            if self.dispatch is None:
                still.append(r.id)
                continue
            try:
                await self.dispatch("accept_held", {"result": r.id}, actor)
            except CommandError as e:
                log.warning("held result %d not accepted after new hand records: %s", r.id, e)
                still.append(r.id)
                continue
            accepted.append(r.id)
        return accepted, still

    def _stored(self, sections: set[str]) -> list[StoredResult]:
        """The session's live and held results: their leads are the file's witnesses."""
        live = [r for r in self.store.live_results(self.event_id) if r.section in sections]
        return live + self._held(sections)

    def _held(self, sections: set[str]) -> list[StoredResult]:
        return [
            r
            for r in self.store.results(self.event_id)
            if r.status == "held" and r.section in sections
        ]

    def _clean(self, r: StoredResult) -> bool:
        """Nothing but the lead held it: the key fits the movement, no other result clashes."""
        movement = self.intake.movements.get(r.section)
        if movement is None:
            return False
        key = check_key(movement, r.section, r.table, r.round, r.board, r.ns_pair, r.ew_pair)
        if key.verdict is not KeyVerdict.OK:
            return False
        prior = self.intake.live.get(r.key)
        return prior is None or prior.same_result(r)
