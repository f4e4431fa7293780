"""The bracket of a knockout section as the director reads it (issue [KNOCKOUT]): round by
round each match's teams, tables, the IMPs of each segment and the total with the
carry-over, the winner and how the match was decided, or what it plays next; byes and
walk-overs; then who chooses an opponent next and from whom, the round held for the
director, the final places so far. ``bracket_lines`` is pure (the bracket dict of
``ko_show``, the ``knockout`` event and the snapshot, exact IMPs as strings, decisions
D4, rounded here for display only); ``BracketScreen`` shows it over the console."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from fractions import Fraction
from typing import Any, ClassVar

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from hub.api.draw_lines import team_text
from hub.console.choice import PopUp
from scoring.numbers import display

Bracket = dict[str, Any]  # a knockout's bracket as the hub sends it

# how a match was decided, after "wins" (decided_by of the bracket)
HOW = {
    "imps": "on IMPs",
    "total_points": "on total points",
    "boards_won": "on boards won",
    "lot": "by lot",
    "higher_placed": "as the higher placed",
    "extra_set": "after an extra set",
    "sudden_death": "after sudden death",
    "walk_over": "by walk-over",
    "result": "",  # fixed, its score not known here
}
FOLLOWS = {"extra_set": "extra set follows", "sudden_death": "sudden death follows"}


def imps(x: str) -> str:
    """Exact IMPs ("13/2") as the console shows them (6.50)."""
    return display(Fraction(x), 2)


def score(pair: list[str]) -> str:
    return f"{imps(pair[0])} - {imps(pair[1])}"


def named(t: dict[str, Any] | None) -> str:
    """A team of the bracket ("3 Owls"); "?" while it is not known."""
    return "?" if t is None else team_text(t)


def match_lines(m: dict[str, Any]) -> list[str]:
    """One match: its heading, the carry-over and segments, then how it stands."""
    teams = m.get("teams") or [None, None]
    home, away = named(teams[0]), named(teams[1])
    if m.get("bye"):
        t = next((t for t in teams if t is not None), None)
        return [f"  {m['match']}: {named(t)} has a bye"]
    tables = f", tables {'/'.join(map(str, m['tables']))}" if m.get("tables") else ""
    head = f"  {m['match']}, {m['boards']} boards{tables}"
    if all(t is None for t in teams):
        return [f"{head}: waiting for its teams"]
    lines = [f"{head}: {home} v {away}"]
    carry = m.get("carry")
    if carry and any(Fraction(c) for c in carry):
        lines.append(f"      carry-over {score(carry)}")
    if m.get("segments"):
        parts = [f"segment {s['segment']}: {score([s['home'], s['away']])}" for s in m["segments"]]
        lines.append("      " + "   ".join(parts))
    lines.append("      " + standing(m, home, away))
    if m.get("state") in ("ready", "playing") and m.get("lineups"):
        lines.append("      " + lineup_text(m, home, away))
    if m.get("seating_turn"):  # seed 000 §8: the captains' draw, then in turn
        lines.append(f"      seating: {named(m['seating_turn'])} chooses a segment to sit first in")
    return lines


def lineup_text(m: dict[str, Any], home: str, away: str) -> str:
    """Which team hands in its line-up first in each segment (the other sits second,
    seeing it: the event's seating rule)."""
    names = {t["team"]: n for t, n in zip(m["teams"], (home, away), strict=True) if t}
    turns = [f"{u['segment']}: {names.get(u['first'], u['first'])}" for u in m["lineups"]]
    return "line-up first in segment " + ", ".join(turns)


def standing(m: dict[str, Any], home: str, away: str) -> str:
    """Where the match stands: its winner and how, what follows, or what it waits for."""
    total = f"total {score(m['totals'])}" if m.get("totals") else ""
    winner = m.get("winner")
    if m.get("walk_over"):
        if winner is None:
            return "walk-over"
        return f"{(home, away)[winner]} wins by walk-over ({(away, home)[winner]} did not come)"
    if winner is not None:
        how = HOW.get(str(m.get("decided_by")), "")
        said = f"{(home, away)[winner]} wins" + (f" {how}" if how else "")
        return f"{total}: {said}" if total else said
    if m.get("next") in FOLLOWS:
        return f"{total}: level, {FOLLOWS[m['next']]}"
    if m.get("state") == "ready":
        return "to be published (not at the tables yet)"
    if m.get("state") == "waiting":
        return "waiting for its other team"
    if not m.get("segments"):
        return "at the tables, no segment complete yet"
    if m.get("under_way"):
        return f"{total} so far"
    if m.get("decided_by"):
        return f"{total}: decided {HOW.get(m['decided_by'], '')}, fixed when the round is over"
    return f"{total}: level with the tie rules used up: the director decides"


def choosing_lines(bracket: Bracket) -> list[str]:
    """Who chooses an opponent next, from whom, and the choices already made."""
    lines = []
    for c in bracket.get("choosing") or []:
        options = ", ".join(named(t) for t in c["options"])
        lines.append(f"  {c['group']}: {named(c['chooser'])} chooses next, from {options}")
        lines += [
            f"      {named(x['team'])} chose {named(x['opponent'])}" for x in c.get("made") or []
        ]
    return ["Choosing an opponent (c)", *lines] if lines else []


def proposal_lines(bracket: Bracket) -> list[str]:
    """The next round drawn and held for the director to publish."""
    proposal = bracket.get("proposal")
    if not proposal:
        return []
    lines = [f"{proposal['round']} is drawn, waiting to be published (p)"]
    for m in proposal["matches"]:
        tables = "/".join(map(str, m["tables"]))
        carry = m.get("carry")
        carried = f", carry-over {score(carry)}" if carry and any(map(Fraction, carry)) else ""
        lines.append(
            f"  {m['match']}, tables {tables}: {named(m['home'])} v {named(m['away'])}{carried}"
        )
    return lines


def places_lines(bracket: Bracket) -> list[str]:
    places = bracket.get("places") or []
    if not places:
        return []
    title = "Final places" if bracket.get("finished") else "Places so far"
    return [title, *(f"  {p['place']:>5}  {team_text(p)}" for p in places)]


def bracket_lines(bracket: Bracket) -> list[str]:
    """The whole bracket, round by round, then the choosing, the proposal, the places."""
    lines = [f"Section {bracket['section']}: {bracket['name']}"]
    for rnd in bracket["rounds"]:
        lines.append(rnd)
        for m in bracket["matches"]:
            if m["round"] == rnd:
                lines += match_lines(m)
    for part in (choosing_lines, proposal_lines, places_lines):
        lines += part(bracket)
    return lines


def undecided(bracket: Bracket) -> list[dict[str, Any]]:
    """The matches at the tables not decided yet (the director may decide one whose tie
    rule is used up, ``ko_decide``)."""
    return [
        m
        for m in bracket.get("matches") or []
        if m.get("state") == "playing" and None not in (m.get("teams") or [None])
    ]


def walk_over_teams(bracket: Bracket) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
    """Each team that may be given as not coming (its match ready or at the tables, not
    decided): the team, its opponent, the match."""
    out = []
    for m in bracket.get("matches") or []:
        teams = m.get("teams") or []
        open_ = m.get("state") in ("ready", "playing") and m.get("winner") is None
        if open_ and len(teams) == 2 and None not in teams:
            out += [(teams[0], teams[1], m["match"]), (teams[1], teams[0], m["match"])]
    return out


class BracketScreen(PopUp):
    """A knockout section's bracket over the console, redrawn as the feed changes it;
    ``c`` a team's choice, ``p`` publish the next round, ``w`` a walk-over, ``d`` the
    director decides a match the tie rule cannot, ``a`` a chooser not there (or come
    back: seed 002 §17), ``s`` a captain's seating choice (seed 000 §8) (each asks in a
    pop-up of its own:
    ``act``), Escape back. Lives on the Textual app's event loop."""

    DEFAULT_CSS = """
    BracketScreen > Vertical { width: 100%; height: 100%; }
    BracketScreen VerticalScroll { height: 1fr; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Back"),
        Binding("K", "cancel", "Back", show=False),
        Binding("c", "act('choose')", "Choose an opponent"),
        Binding("p", "act('publish')", "Publish the next round"),
        Binding("w", "act('walk_over')", "Walk-over"),
        Binding("d", "act('decide')", "Decide a match"),
        Binding("a", "act('absent')", "A chooser not there"),
        Binding("s", "act('seating')", "A captain's seating choice"),
    ]

    def __init__(
        self,
        section: str,
        shown: Callable[[], Bracket | None],
        act: Callable[[str], Awaitable[None]],
    ) -> None:
        super().__init__(f"Section {section}: the knockout (c choose, p publish, w walk-over)")
        self.shown, self.act = shown, act
        self.drawn: Bracket | None = None
        self.text = Static("", id="bracket-text", markup=False)

    def body(self) -> Widget:
        return VerticalScroll(self.text)

    def on_mount(self) -> None:
        self.redraw()
        self.set_interval(0.1, self.redraw)

    def redraw(self) -> None:
        """The bracket again when the feed brought a new one (each event is a new dict)."""
        bracket = self.shown()
        if bracket is self.drawn and self.drawn is not None:
            return
        self.drawn = bracket
        lines = bracket_lines(bracket) if bracket else ["This section has no knockout bracket"]
        self.text.update("\n".join(lines))

    async def action_act(self, what: str) -> None:
        await self.act(what)
