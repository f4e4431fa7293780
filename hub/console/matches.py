"""The Matches tab (issue 16 [TEAMS] "Team matches in the running hub"): every match of
each teams section's current round: its tables (open room, closed room), home v away, the
running IMPs and VPs, and the boards still out (not yet played in both rooms).

The snapshot's ``sections.<letter>.matches`` and the feed's ``matches`` and ``match``
events keep them (``hub.api.match_news``, as the result screen does); a new round
(``round_started``) shows its matches at once, from the new seating, with every board out.
Exact values come as strings (decisions D4) and are shown to two places.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, TabbedContent

from hub.api.match_news import next_round, tables_text, take_matches
from hub.console.rows import Row
from hub.console.tables import ConsoleTable
from scoring.numbers import display

NONE_NOTE = "No team matches: the Matches tab shows the matches of a teams event."


@dataclass
class MatchesBook:
    """Folds the feed's match news into the room's sections (``RoomState.sections``).
    Lives on the Textual app's event loop."""

    dirty: bool = True

    def apply(self, msg: dict[str, Any], sections: dict[str, dict[str, Any]]) -> None:
        """Take one message from the hub's feed (after the room has taken it)."""
        if msg.get("type") == "snapshot":
            self.dirty = True
            return
        if msg.get("type") != "event":
            return
        sec = sections.get(str(msg.get("section")))
        if sec is None:
            return
        if msg.get("event") in ("matches", "match"):  # the round's list, or one match
            sec["matches"] = take_matches(sec.get("matches") or [], msg)
            self.dirty = True
        elif msg.get("event") in ("draw_published", "round_complete") and sec.get("draw"):
            sec["draw"] = drawn_now(sec["draw"], msg, int(sec.get("rounds") or 0))
            self.dirty = True
        elif msg.get("event") == "round_started" and sec.get("matches") and "tables" in msg:
            sec["matches"] = next_round(sec["matches"], int(msg["round"]), msg["tables"])
            self.dirty = True


def score_pair(home: str | None, away: str | None) -> str:
    """``"10.00 - 0.00"``; ``"-"`` before any board is played in both rooms."""
    if home is None or away is None:
        return "-"
    return f"{display(Fraction(home), 2)} - {display(Fraction(away), 2)}"


def team_text(number: int, name: str) -> str:
    return f"{number} {name}".strip()


def match_rows(sections: dict[str, dict[str, Any]]) -> list[tuple[str, Row]]:
    """One row a match of each section's current round, keyed ``match:section:number``:
    section, match, tables (open/closed), round, home, away, IMPs, VPs, boards out."""
    rows = []
    for letter in sorted(sections):
        sec = sections[letter]
        for m in sec.get("matches") or []:
            if m.get("round") != sec.get("round"):
                continue  # a late result of an earlier round: not this round's match
            out = m.get("out") or []
            rows.append(
                (
                    f"match:{letter}:{m['match']}",
                    (
                        letter,
                        m["match"],
                        tables_text(m),
                        m["round"],
                        team_text(m["home"], m.get("home_name") or ""),
                        team_text(m["away"], m.get("away_name") or ""),
                        score_pair(m.get("home_imps"), m.get("away_imps")),
                        score_pair(m.get("home_vp"), m.get("away_vp")),
                        ", ".join(str(b) for b in out) if out else "none",
                    ),
                )
            )
    return rows


def drawn_now(draw: dict[str, Any], msg: dict[str, Any], rounds: int) -> dict[str, Any]:
    """A drawn section's draw state after a published draw, or after a round over with no
    draw for the next one yet (the room waits; not after the last round)."""
    rnd = int(msg.get("round") or 0)
    if msg.get("event") == "draw_published":
        return {**draw, "drawn": rnd, "waiting": False}
    return {**draw, "waiting": int(draw.get("drawn") or 0) <= rnd < rounds}


def draw_notes(sections: dict[str, dict[str, Any]]) -> list[str]:
    """A line for each section waiting for its next draw (D19): the key that shows it."""
    out = []
    for letter in sorted(sections):
        draw = sections[letter].get("draw") or {}
        if draw.get("waiting"):
            out.append(
                f"Section {letter}: round {int(draw['drawn']) + 1} waits for its "
                f"{draw['method']} draw: D shows it, to publish"
            )
    return out


class MatchesTable(ConsoleTable):
    """Every match of the current round. Lives on the Textual app's event loop."""

    COLUMNS = ("sec", "match", "tables", "round", "home", "away", "IMPs", "VPs", "boards out")


class MatchesView(Vertical):
    """The Matches tab's content: a note and the table, redrawn when the book or the
    snapshot changed. Lives on the Textual app's event loop."""

    def __init__(
        self, sections: Callable[[], dict[str, dict[str, Any]]], book: MatchesBook, **kwargs: Any
    ) -> None:
        """``sections`` gives the room's sections now (a new snapshot replaces them)."""
        super().__init__(**kwargs)
        self.sections = sections
        self.book = book
        self._seen: object = None

    def compose(self) -> ComposeResult:
        yield Static("", id="matches-note")
        yield MatchesTable(id="matches-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.set_interval(0.25, self.redraw)
        self.show_tab(False)  # until a snapshot with a teams section

    def show_tab(self, teams: bool) -> None:
        """The tab in the tab bar in a teams event only (``x`` opens it all the same)."""
        tabs = next(iter(self.app.query(TabbedContent)), None)
        if tabs is not None:
            (tabs.show_tab if teams else tabs.hide_tab)("matches")

    def redraw(self) -> None:
        sections = self.sections()
        if not self.book.dirty and sections is self._seen:
            return
        self.book.dirty, self._seen = False, sections
        self.show_tab(any(s.get("kind") == "teams" for s in sections.values()))
        rows = match_rows(sections)
        note = "\n".join(draw_notes(sections)) or ("" if rows else NONE_NOTE)
        self.query_one("#matches-note", Static).update(note)
        self.query_one(MatchesTable).fill(rows)
