"""When a round's standings go out (decisions D12): once the round is complete at every
table and no held result or suspicious-score flag is open on its boards; the director can
release them earlier, and the boards still open are then marked provisional everywhere.
Each publication is recorded in the store, so result screens show the same round and a
restarted hub knows what it has published."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from drivers.protocol.messages import RankingPage, RankLine
from hub.standings.rounds import complete_rounds

if TYPE_CHECKING:
    from hub.live.service import HubService


class Publication:
    def __init__(self, service: HubService) -> None:
        self.s = service
        self.withheld: dict[str, int] = {}  # section → the round whose standings wait
        self.published: dict[str, int] = {}  # section → the last round published

    def load(self) -> None:
        """After a restart: the last round published per section; a complete round not yet
        published waits again."""
        s = self.s
        for a in s.store.audit_log(s.event_id, "standings_published"):
            d = a["detail"]
            self.published[d["section"]] = max(d["round"], self.published.get(d["section"], 0))
        lines = s.store.live_lines(s.event_id)
        for letter, state in s.sections.items():
            done = complete_rounds(
                state.movement, letter, [x for x in lines if x.section == letter]
            )
            if done > self.published.get(letter, 0):
                self.withheld[letter] = done

    def questioned_boards(self, section: str, rnd: int) -> set[int]:
        """The round's boards with a held result or an open suspicious-score flag."""
        s = self.s
        boards = {
            b for row in s.sections[section].movement.round_rows(rnd, section) for b in row.boards
        }
        held = {
            r.board
            for r in s.store.results(s.event_id, section)
            if r.status == "held" and r.board in boards
        }
        return held | s.suspicious.open_boards(section, boards)

    async def round_complete(self, section: str, rnd: int) -> None:
        """Publish the round's standings, or hold them while its boards have questions."""
        self.withheld[section] = rnd  # until decided: a release meanwhile takes this round
        held = await asyncio.to_thread(self.questioned_boards, section, rnd)
        if self.withheld.get(section) != rnd:
            return  # the director released it while the boards were being checked
        if held:
            self.s.feed.publish(
                "standings_withheld", section=section, round=rnd, boards=sorted(held)
            )
        else:
            await self._release_withheld(section, rnd)

    async def publish_if_clear(self, section: str) -> None:
        """Withheld standings go out as soon as the director has settled the last question."""
        rnd = self.withheld.get(section)
        if rnd is None:
            return
        if not await asyncio.to_thread(self.questioned_boards, section, rnd):
            await self._release_withheld(section, rnd)

    async def _release_withheld(self, section: str, rnd: int) -> None:
        """Publish a withheld round once: checks run in worker threads, so another path may
        have published it meanwhile."""
        if self.withheld.get(section) != rnd:
            return
        del self.withheld[section]
        await self.publish(section, round_=rnd)
        self.send_rankings(section, rnd)

    async def release(self, section: str, actor: str) -> list[int]:
        """The director's override: the withheld round (or the current one) now; returns
        the boards still open, marked provisional in the feed, the store and at the
        tables."""
        s = self.s
        rnd = self.withheld.pop(section, s.sections[section].round)
        open_boards = sorted(await asyncio.to_thread(self.questioned_boards, section, rnd))
        await self.publish(section, released_by=actor, provisional=open_boards, round_=rnd)
        self.send_rankings(section, rnd)
        if open_boards:
            boards = ", ".join(map(str, open_boards))
            s.broadcast(
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
        s = self.s
        rnd = round_ if round_ is not None else self.published.get(section, 0)
        self.published[section] = max(rnd, self.published.get(section, 0))
        await asyncio.to_thread(
            s.store.audit,
            s.event_id,
            released_by or "hub",
            "standings_published",
            {"section": section, "round": rnd, "provisional": provisional or []},
        )
        s.feed.publish(
            "standings",
            section=section,
            round=rnd,
            released_by=released_by,
            provisional=provisional or [],
            rows=s.standings_rows(section),
        )

    def send_rankings(self, section: str, rnd: int) -> None:
        """Ranking pages to the terminals, as the event allows (hidden for the last
        rounds when it says so)."""
        s = self.s
        display = s.event.rules.display
        state = s.sections[section]
        if not display.rankings_after_each_round or (
            rnd > state.movement.rounds - display.hide_rankings_last_rounds
        ):
            return
        rows = sorted(s.standings_rows(section), key=lambda r: -r["total"])
        pages = max(1, -(-len(rows) // 32))
        lines = tuple(
            RankLine(r["rank"], r["pair"], round(r["total"] * 100), "") for r in rows[:32]
        )
        page = RankingPage(section, rnd, 1, pages, lines)
        for seat in s.seats.values():
            if seat.section == section and seat.table is not None:
                seat.driver.send(seat.address, page)
