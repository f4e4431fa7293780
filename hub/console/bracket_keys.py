"""``K``: the bracket of a knockout section (issue [KNOCKOUT]), from the snapshot and the
``knockout`` events (``hub.console.knockout_events``). On it the director makes the choice
of the team whose turn it is (its opponent picked from the options: ``ko_choose``),
publishes the round held for him once he confirms (``ko_publish``), and gives a walk-over
to the other team of one that does not come (seed 003 §15: the team picked, then
confirmed: ``ko_walk_over``). A refusal lands in the log and on screen, as every command's
does; the bracket follows from the feed."""

from __future__ import annotations

import functools

from hub.console.bracket import (
    Bracket,
    BracketScreen,
    named,
    proposal_lines,
    undecided,
    walk_over_teams,
)
from hub.console.choice import ChoiceScreen
from hub.console.commands import Console


class BracketKeys:
    """The bracket key's flows; lives on the Textual app's event loop."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def sections(self) -> list[str]:
        """The knockout sections the key acts on (the room filter's one, if set)."""
        only = self.console.section_filter
        return [
            letter
            for letter, sec in sorted(self.console.room.sections.items())
            if sec.get("knockout") and only in (None, letter)
        ]

    def bracket(self, section: str) -> Bracket | None:
        """The section's bracket as the console last heard it."""
        return (self.console.room.sections.get(section) or {}).get("knockout")

    def show(self) -> None:
        """The bracket of the knockout section; with several, the director picks one."""
        sections = self.sections()
        if not sections:
            self.console.room.warn("! K shows the bracket of a knockout section: there is none")
        elif len(sections) == 1:
            self.open(sections[0])
        else:
            choices = [(s, f"Section {s}: {(self.bracket(s) or {}).get('name')}") for s in sections]
            self.console.ask(ChoiceScreen("Which knockout?", choices), self._opened)

    async def _opened(self, section: str | None) -> None:
        if section is not None:
            self.open(section)

    def open(self, section: str) -> None:
        screen = BracketScreen(
            section, functools.partial(self.bracket, section), functools.partial(self.act, section)
        )
        self.console.ask(screen, self._closed)

    async def _closed(self, answer: str | None) -> None:
        """The bracket screen left (Escape): nothing to do."""

    async def act(self, section: str, what: str) -> None:
        """A key of the bracket screen: ``choose``, ``publish``, ``walk_over``, ``decide``,
        ``absent``."""
        bracket = self.bracket(section)
        if bracket is None:
            self.console.room.warn(f"! section {section} has no knockout bracket")
        elif what == "choose":
            self.choose(section, bracket)
        elif what == "publish":
            self.publish(section, bracket)
        elif what == "walk_over":
            self.walk_over(section, bracket)
        elif what == "decide":
            self.decide(section, bracket)
        elif what == "absent":
            self.absent(section, bracket)
        elif what == "seating":
            self.seating(section, bracket)

    # -- a captain's seating choice (seed 000 §8) ------------------------------------------------
    def seating(self, section: str, bracket: Bracket) -> None:
        """The segment where the team whose turn it is sits first."""
        choices = [
            (f"{m['match']}|{n}", f"{m['match']}: {named(m['seating_turn'])} sits first in {n}")
            for m in bracket.get("matches") or []
            if m.get("seating_turn")
            for n in range(1, int(m.get("segment_count") or 1) + 1)
        ]
        if not choices:
            self.console.room.warn(f"! section {section}: no seating choice is due")
            return
        self.console.ask(
            ChoiceScreen(f"Section {section}: the captains' seating", choices),
            functools.partial(self._seated, section),
        )

    async def _seated(self, section: str, answer: str | None) -> None:
        if answer is None:
            return
        match, segment = answer.split("|")
        await self.console.command(
            "ko_seating",
            f"{match}: segment {segment} chosen in section {section}",
            section=section,
            match=match,
            segment=int(segment),
        )

    # -- a chooser not there (seed 002 §17) ------------------------------------------------------
    def absent(self, section: str, bracket: Bracket) -> None:
        """The team whose turn it is is not there (its turn passes), or one not there has
        come (it chooses next)."""
        choices = []
        for g in bracket.get("choosing") or []:
            t = g["chooser"]
            choices.append((f"{t['team']}|0", f"{named(t)} is not there ({g['group']})"))
            choices += [
                (f"{a['team']}|1", f"{named(a)} has come ({g['group']})")
                for a in g.get("absent") or []
            ]
        if not choices:
            self.console.room.warn(f"! section {section}: no team is choosing an opponent")
            return
        self.console.ask(
            ChoiceScreen(f"Section {section}: a choosing team", choices),
            functools.partial(self._absent, section),
        )

    async def _absent(self, section: str, answer: str | None) -> None:
        if answer is None:
            return
        team, present = answer.split("|")
        said = "has come" if present == "1" else "is not there: its turn passes"
        await self.console.command(
            "ko_absent",
            f"team {team} {said} in section {section}",
            section=section,
            team=int(team),
            present=present == "1",
        )

    # -- the director decides a match ----------------------------------------------------------
    def decide(self, section: str, bracket: Bracket) -> None:
        """A match at the tables the event's tie rule cannot decide: its winner, picked."""
        choices = [
            (f"{m['match']}|{t['team']}", f"{m['match']}: {named(t)} wins")
            for m in undecided(bracket)
            for t in m["teams"]
        ]
        if not choices:
            self.console.room.warn(f"! section {section}: no match at the tables to decide")
            return
        self.console.ask(
            ChoiceScreen(f"Section {section}: the director decides", choices),
            functools.partial(self._decided, section),
        )

    async def _decided(self, section: str, answer: str | None) -> None:
        if answer is None:
            return
        match, team = answer.split("|")
        await self.console.command(
            "ko_decide",
            f"{match} decided for team {team} by the director in section {section}",
            section=section,
            match=match,
            winner=int(team),
        )

    # -- a team's choice of opponent -----------------------------------------------------------
    def choose(self, section: str, bracket: Bracket) -> None:
        """The opponent of the team whose turn it is (with several groups choosing at
        once, the group first)."""
        choosing = bracket.get("choosing") or []
        if not choosing:
            self.console.room.warn(f"! section {section}: no team chooses an opponent now")
        elif len(choosing) == 1:
            self._options(section, choosing[0])
        else:
            choices = [
                (str(i), f"{c['group']}: {named(c['chooser'])}") for i, c in enumerate(choosing)
            ]
            self.console.ask(
                ChoiceScreen(f"Section {section}: whose choice?", choices),
                functools.partial(self._group, section, choosing),
            )

    async def _group(self, section: str, choosing: list[dict], answer: str | None) -> None:
        if answer is not None:
            self._options(section, choosing[int(answer)])

    def _options(self, section: str, group: dict) -> None:
        chooser = group["chooser"]
        title = f"Section {section}, {group['group']}: the opponent {named(chooser)} chooses"
        choices = [(str(t["team"]), named(t)) for t in group["options"]]
        self.console.ask(
            ChoiceScreen(title, choices), functools.partial(self._chosen, section, group)
        )

    async def _chosen(self, section: str, group: dict, answer: str | None) -> None:
        if answer is None:
            return
        chooser = group["chooser"]
        opponent = next((named(t) for t in group["options"] if str(t["team"]) == answer), answer)
        await self.console.command(
            "ko_choose",
            f"team {named(chooser)} chooses team {opponent} in section {section}",
            section=section,
            team=int(chooser["team"]),
            opponent=int(answer),
        )

    # -- the next round published ------------------------------------------------------------
    def publish(self, section: str, bracket: Bracket) -> None:
        proposal = bracket.get("proposal")
        if not proposal:
            why = "its choices are not all made" if bracket.get("choosing") else (
                "the bracket is decided" if bracket.get("finished")
                else "the matches of the round are not all decided"
            )  # fmt: skip
            self.console.room.warn(f"! section {section}: no round waits to be published ({why})")
            return
        rnd = str(proposal["round"])
        choices = [
            ("publish", f"Publish {rnd}: the tables are told where they play"),
            ("keep", "Not now"),
        ]
        self.console.ask(
            ChoiceScreen("\n".join(proposal_lines(bracket)), choices),
            functools.partial(self._publish, section, rnd),
        )

    async def _publish(self, section: str, rnd: str, answer: str | None) -> None:
        if answer == "publish":
            await self.console.command(
                "ko_publish",
                f"the knockout's {rnd} in section {section}",
                section=section,
                round=rnd,
            )

    # -- a walk-over ---------------------------------------------------------------------------
    def walk_over(self, section: str, bracket: Bracket) -> None:
        """The team that does not come, picked from the matches ready or at the tables."""
        teams = walk_over_teams(bracket)
        if not teams:
            self.console.room.warn(f"! section {section}: no match is ready or at the tables")
            return
        choices = [
            (str(t["team"]), f"{named(t)} does not come ({match} v {named(other)})")
            for t, other, match in teams
        ]
        self.console.ask(
            ChoiceScreen(f"Section {section}: which team does not come?", choices),
            functools.partial(self._confirm_walk_over, section, teams),
        )

    async def _confirm_walk_over(self, section: str, teams: list, answer: str | None) -> None:
        if answer is None:
            return
        team, other, match = next(x for x in teams if str(x[0]["team"]) == answer)
        title = (
            f"{match}: {named(team)} does not come; the match goes to {named(other)} by "
            "walk-over (audited) and the bracket moves on"
        )
        choices = [("walk_over", f"Walk-over to {named(other)}"), ("keep", "Not now")]
        self.console.ask(
            ChoiceScreen(title, choices), functools.partial(self._walk_over, section, team, other)
        )

    async def _walk_over(self, section: str, team: dict, other: dict, answer: str | None) -> None:
        if answer == "walk_over":
            await self.console.command(
                "ko_walk_over",
                f"walk-over to team {named(other)} ({named(team)} does not come) "
                f"in section {section}",
                section=section,
                team=int(team["team"]),
            )


def open_bracket(console: Console) -> None:
    """The console's ``K`` (``ConsoleApp.action_knockout = open_bracket``)."""
    BracketKeys(console).show()
