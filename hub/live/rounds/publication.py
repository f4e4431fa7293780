"""When a round's standings go out (decisions D12): once the round is complete at every
table and no held result or suspicious-score flag is open on its boards; the director can
release them earlier, and the boards still open are then marked provisional everywhere.
Each publication is recorded in the store, so a restarted hub knows what it has published,
and kept for the snapshot, so result screens show the same round.

``Publication`` belongs to the hub's asyncio loop; it reads and writes the store in worker
threads and depends only on the narrow protocols below.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Protocol

from hub.api.feed import Feed
from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.live.port.terminal_port import RankingLine, RankingView
from hub.live.views.published import published_rows
from hub.standings.rounds import complete_rounds
from hub.store.store import Store
from scoring.numbers import round_half_away

log = logging.getLogger(__name__)
PAGE = 32  # ranking lines a terminal page holds


class Questions(Protocol):
    def open_boards(self, section: str, boards: Iterable[int]) -> set[int]: ...


class Tables(Protocol):
    def rankings(self, section: str, pages: list[RankingView]) -> None: ...

    def broadcast(self, text: str, section: str | None = None, beep: bool = True) -> int: ...


class Publication:
    """When standings go out and what they show; on the hub's loop, store work in worker
    threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        event: EventFile,
        movements: dict[str, Movement],
        names: dict[str, dict[int, str]],
        feed: Feed,
        questions: Questions,
        tables: Tables,
        current_round: Callable[[str], int],
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.event = event
        self.movements = movements
        self.names = names
        self.feed = feed
        self.questions = questions
        self.tables = tables
        self.current_round = current_round
        self.withheld: dict[str, int] = {}  # section → the round whose standings wait
        self.published: dict[str, int] = {}  # section → the last round published
        self.last: dict[str, dict[str, Any]] = {}  # section → what was published, for screens
        self._deferred: list[tuple[str, int]] | None = None  # rounds ended while loading

    def begin_loading(self) -> None:
        """Rounds that end before ``finish_loading`` are decided then, once the flags that
        may hold them back are known (hub.live.service.warm_start)."""
        self._deferred = []

    async def finish_loading(self) -> None:
        deferred, self._deferred = self._deferred or [], None
        for section, rnd in deferred:
            try:  # one failure never keeps the other rounds back
                await self.round_complete(section, rnd)
            except Exception:
                log.exception("deciding the standings of round %d of section %s", rnd, section)

    async def load(self, lines: list[Any] | None = None) -> None:
        """After a restart: the last round published per section (and its standings for the
        screens); a complete round not yet published waits again. ``lines``: the live lines
        when the caller has read them."""
        audits, read = await asyncio.to_thread(self._stored, lines is None)
        lines = read if lines is None else lines
        for d in audits:
            self.published[d["section"]] = max(d["round"], self.published.get(d["section"], 0))
        for d in audits:
            if d["round"] == self.published[d["section"]]:
                self.last[d["section"]] = {
                    "round": d["round"],
                    "provisional": d.get("provisional", []),
                    "released_by": None,
                }
        for letter, movement in self.movements.items():
            mine = [x for x in lines if x.section == letter]
            complete = complete_rounds(movement, letter, mine)
            if complete > self.published.get(letter, 0):
                self.withheld[letter] = max(complete, self.withheld.get(letter, 0))
            if letter in self.last:
                self.last[letter]["rows"] = await self._with_previous(
                    letter, self.last[letter]["round"]
                )

    def _stored(self, lines: bool) -> tuple[list[dict[str, Any]], list[Any]]:
        audits = [a["detail"] for a in self.store.audit_log(self.event_id, "standings_published")]
        return audits, self.store.live_lines(self.event_id) if lines else []

    async def questioned_boards(self, section: str, rnd: int) -> set[int]:
        """What holds the standings after round ``rnd``, as board numbers: in every round
        they show for the first time (after the last published, up to ``rnd``), a held
        result of a table in that round, whatever board it names (a wrong board number is
        the commonest reason to hold one), a held result naming one of its boards, and an
        open suspicious-score flag on its boards."""
        first = min(self.published.get(section, 0) + 1, rnd)
        rounds = set(range(first, rnd + 1))
        movement = self.movements[section]
        boards = {b for r in rounds for row in movement.round_rows(r, section) for b in row.boards}
        held = await asyncio.to_thread(self._held, section)
        mine = {board for r, board in held if r in rounds or board in boards}
        return mine | self.questions.open_boards(section, boards)

    def _held(self, section: str) -> set[tuple[int, int]]:
        """(round, board) of every result still held in the section."""
        results = self.store.results(self.event_id, section)
        return {(r.round, r.board) for r in results if r.status == "held"}

    async def round_complete(self, section: str, rnd: int) -> None:
        """Publish the round's standings, or hold them while its boards have questions; a
        withheld earlier round stays withheld in it (its standings include that round)."""
        if self._deferred is not None:  # the flags are not loaded yet: decided then
            self._deferred.append((section, rnd))
            return
        rnd = max(rnd, self.withheld.get(section, 0))  # never back to an earlier round
        self.withheld[section] = rnd  # until decided: a release meanwhile takes this round
        held = await self.questioned_boards(section, rnd)
        if self.withheld.get(section) != rnd:
            return  # the director released it while the boards were being checked
        if held:
            self.feed.publish("standings_withheld", section=section, round=rnd, boards=sorted(held))
        else:
            await self._release_withheld(section, rnd)

    async def publish_if_clear(self, section: str) -> None:
        """Withheld standings go out as soon as the director has settled the last question."""
        rnd = self.withheld.get(section)
        if rnd is not None and not await self.questioned_boards(section, rnd):
            await self._release_withheld(section, rnd)

    async def publish_settled(self) -> None:
        """At start: a round finished before a restart and not yet published goes out once
        its questions are settled."""
        for section in self.movements:
            await self.publish_if_clear(section)

    async def _release_withheld(self, section: str, rnd: int) -> None:
        """Publish a withheld round once: another path may have published it meanwhile."""
        if self.withheld.get(section) != rnd:
            return
        del self.withheld[section]
        try:
            await self.publish(section, round_=rnd)
        except BaseException:
            self.withheld.setdefault(section, rnd)  # still to publish: the next check tries
            raise
        self.send_rankings(section, rnd)

    async def release(self, section: str, actor: str) -> list[int]:
        """The director's override: the withheld round (or the current one) now; returns
        the boards still open, marked provisional in the feed, the store and at the
        tables."""
        rnd = self.withheld.pop(section, self.current_round(section))
        open_boards = sorted(await self.questioned_boards(section, rnd))
        await self.publish(section, released_by=actor, provisional=open_boards, round_=rnd)
        self.send_rankings(section, rnd)
        if open_boards:
            boards = ", ".join(map(str, open_boards))
            self.tables.broadcast(
                f"Standings after round {rnd} are provisional: board"
                f"{'s' * (len(open_boards) > 1)} {boards} under review",
                section,
                beep=False,
            )
        return open_boards

    async def publish(
        self,
        section: str,
        released_by: str | None = None,
        provisional: list[int] | None = None,
        round_: int | None = None,
    ) -> None:
        """Standings to the feed, recorded in the store (``round_`` None: the standings
        changed after the last published round, e.g. a confirmed penalty)."""
        if round_ is None and not self.published.get(section):
            return  # nothing published yet: the change shows in the live standings
        rnd = round_ if round_ is not None else self.published.get(section, 0)
        self.published[section] = max(rnd, self.published.get(section, 0))
        rows = await self._with_previous(section, rnd)  # first: a failed read records nothing
        if rnd < self.published[section]:
            return  # a later round went out meanwhile: the screens keep it
        detail = {"section": section, "round": rnd, "provisional": provisional or []}
        actor = released_by or "hub"
        try:  # the record is for restarts; the room gets its standings even if it fails
            await asyncio.to_thread(
                self.store.audit, self.event_id, actor, "standings_published", detail
            )
        except Exception:
            log.exception("recording the publication of round %d of section %s", rnd, section)
        self.last[section] = {
            "round": rnd,
            "provisional": provisional or [],
            "released_by": released_by,
            "rows": rows,
        }
        self.feed.publish(
            "standings",
            section=section,
            released_by=released_by,
            **{k: v for k, v in self.last[section].items() if k != "released_by"},
            **self.shown(section, rnd),
        )

    async def _with_previous(self, section: str, rnd: int) -> list[dict[str, Any]]:
        """The standings after round ``rnd`` from rounds 1..``rnd`` alone, each row with its
        rank after the round before (places gained or lost, for the screens)."""
        names = dict(self.names[section])  # as the loop knows them now
        return await asyncio.to_thread(self._rows_after, section, rnd, names)

    def _rows_after(self, section: str, rnd: int, names: dict[int, str]) -> list[dict[str, Any]]:
        lines = self.store.live_lines(self.event_id, section)
        penalties = self.store.penalties(self.event_id)
        movement = self.movements[section]
        return published_rows(self.event, section, movement, lines, rnd, names, penalties)

    def snapshot(self, section: str) -> dict[str, Any]:
        """What the result screens show: the last publication (round 0: none yet)."""
        empty = {"round": 0, "provisional": [], "released_by": None, "rows": []}
        last = dict(self.last.get(section, empty))
        return {**last, **self.shown(section, last["round"])}

    def shown(self, section: str, rnd: int) -> dict[str, bool]:
        """``final``: the standings after the last round (the final results); ``hidden``:
        the event hides the rankings of its last rounds (``hide_rankings_last_rounds``) and
        these are such a round's, to be shown nowhere in the room before the final (the
        terminals, the projector: TD trial F13)."""
        rounds = self.movements[section].rounds
        final = rnd >= rounds > 0
        hide = self.event.rules.display.hide_rankings_last_rounds
        return {"final": final, "hidden": not final and rnd > rounds - hide}

    def send_rankings(self, section: str, rnd: int) -> None:
        """Ranking pages to the terminals, as the event allows (hidden for the last
        rounds when it says so); the final results always go (the session is over)."""
        display = self.event.rules.display
        shown = self.shown(section, rnd)
        if not shown["final"] and (not display.rankings_after_each_round or shown["hidden"]):
            return
        rows = sorted(self.last[section]["rows"], key=lambda r: -Fraction(r["total"]))
        lines = [
            RankingLine(r["rank"], r["pair"], hundredths(r["total"]), r.get("name") or "")
            for r in rows
        ]
        chunks = [tuple(lines[k : k + PAGE]) for k in range(0, len(lines), PAGE)] or [()]
        pages = [
            RankingView(section, rnd, n, len(chunks), chunk) for n, chunk in enumerate(chunks, 1)
        ]
        self.tables.rankings(section, pages)  # every page (C13), numbered page/pages


def hundredths(total: str) -> int:
    """An exact total as the terminals carry it: hundredths, rounded half-up."""
    return round_half_away(Fraction(total) * 100)
