"""The Matches tab (issue 16 [TEAMS] "Team matches in the running hub"): every match of
each teams section's current round: its tables (open room, closed room), home v away, the
running IMPs and VPs, and the boards still out (not yet played in both rooms); the round's
byes (a team of the section in none of its matches); and below, the earlier rounds'
matches and byes as the feed last gave them while this console followed it (issue [MENDS]
#25).

The snapshot's ``sections.<letter>.matches`` and the feed's ``matches`` and ``match``
events keep them (``hub.api.match_news``, as the result screen does); a new round
(``round_started``) shows its matches at once, from the new seating, with every board out.
Exact values come as strings (decisions D4) and are shown to two places.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, TabbedContent

from hub.api.match_news import next_round, tables_text, take_matches
from hub.console.rows import Row
from hub.console.tables import ConsoleTable
from scoring.numbers import display

log = logging.getLogger(__name__)
NONE_NOTE = "No team matches: the Matches tab shows the matches of a teams event."


Past = dict[str, dict[int, list[dict[str, Any]]]]  # section → round → its matches


@dataclass
class MatchesBook:
    """Folds the feed's match news into the room's sections (``RoomState.sections``), and
    keeps each earlier round's matches as they stood when the feed moved on (``past``).
    Lives on the Textual app's event loop."""

    dirty: bool = True
    past: Past = field(default_factory=dict)
    byes: dict[str, dict[int, list[int]]] = field(default_factory=dict)  # the hub's, by round
    wants_history: bool = False  # a teams snapshot came: ask the hub for earlier rounds

    def apply(self, msg: dict[str, Any], sections: dict[str, dict[str, Any]]) -> None:
        """Take one message from the hub's feed (after the room has taken it)."""
        if msg.get("type") == "snapshot":
            self.dirty = True
            for letter, shown in sections.items():
                self._keep(letter, shown)
            self.wants_history = any(x.get("kind") == "teams" for x in sections.values())
            return
        if msg.get("type") != "event":
            return
        sec = sections.get(str(msg.get("section")))
        if sec is None:
            return
        self._keep(str(msg.get("section")), sec)  # before the news replaces the list
        if msg.get("event") in ("matches", "match"):  # the round's list, or one match
            sec["matches"] = take_matches(sec.get("matches") or [], msg)
            self.dirty = True
        elif msg.get("event") in ("draw_published", "round_complete") and sec.get("draw"):
            sec["draw"] = drawn_now(sec["draw"], msg, int(sec.get("rounds") or 0))
            self.dirty = True
        elif msg.get("event") == "round_started" and sec.get("matches") and "tables" in msg:
            sec["matches"] = next_round(sec["matches"], int(msg["round"]), msg["tables"])
            self.dirty = True

    def take_history(self, reply: dict[str, Any]) -> None:
        """The hub's ``results`` (docs/api.md): the matches it shows of every round, so a
        console started late has the earlier rounds too (they replace what it noted)."""
        if not reply.get("ok"):
            return  # a hub without requests: the rounds seen while following stay
        try:
            for sec in reply["report"]["sections"]:
                letter = str(sec["letter"])
                for rnd, matches in history_of(sec.get("matches") or []).items():
                    self.past.setdefault(letter, {})[rnd] = matches
                    self.byes.setdefault(letter, {})[rnd] = [
                        int(b["team"]) for b in sec.get("byes") or [] if b.get("round") == rnd
                    ]
        except (KeyError, TypeError, ValueError) as e:
            log.warning("Matches tab: the hub's results do not read (%r)", e)
        self.dirty = True

    def _keep(self, letter: str, sec: dict[str, Any]) -> None:
        """Note the section's matches now under their rounds (a later list of a round
        replaces an earlier one: it is the more complete)."""
        by_round: dict[int, list[dict[str, Any]]] = {}
        for m in sec.get("matches") or []:
            if isinstance(m.get("round"), int):
                by_round.setdefault(m["round"], []).append(m)
        self.past.setdefault(letter, {}).update(by_round)


def history_of(lines: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """The report's match lines (``hub/report/team_model.py`` as JSON) as the feed's
    matches by round: teams, tables, IMPs and VPs (exact), nothing out."""
    out: dict[int, list[dict[str, Any]]] = {}
    for m in lines:
        home, away = int(m["home"]), int(m["away"])
        out.setdefault(int(m["round"]), []).append(
            {
                "match": int(m["match"]),
                "round": int(m["round"]),
                "open_table": m.get("open_table") or "",
                "closed_table": m.get("closed_table") or "",
                "home": home,
                "away": away,
                "home_name": _name(str(m.get("home_label") or ""), home),
                "away_name": _name(str(m.get("away_label") or ""), away),
                "home_imps": str(Fraction(m["home_imps"])) if m.get("home_imps") else None,
                "away_imps": str(Fraction(m["away_imps"])) if m.get("away_imps") else None,
                "home_vp": m.get("home_vp_exact") or None,
                "away_vp": m.get("away_vp_exact") or None,
                "out": [],
            }
        )
    return out


def _name(label: str, team: int) -> str:
    """ "8 Hawks" → "Hawks"."""
    return label.removeprefix(str(team)).strip()


def score_pair(home: str | None, away: str | None) -> str:
    """``"10.00 - 0.00"``; ``"-"`` before any board is played in both rooms."""
    if home is None or away is None:
        return "-"
    return f"{display(Fraction(home), 2)} - {display(Fraction(away), 2)}"


def team_text(number: int, name: str) -> str:
    return f"{number} {name}".strip()


def match_rows(sections: dict[str, dict[str, Any]]) -> list[tuple[str, Row]]:
    """One row a match of each section's current round, keyed ``match:section:number``:
    section, match, tables (open/closed), round, home, away, IMPs, VPs, boards out; then
    a row for each team with a bye in the round, keyed ``bye:section:team``."""
    rows = []
    for letter in sorted(sections):
        sec = sections[letter]
        mine = [m for m in sec.get("matches") or [] if m.get("round") == sec.get("round")]
        # (a late result of an earlier round is not this round's match)
        rows += [(f"match:{letter}:{m['match']}", _match_row(letter, m)) for m in mine]
        rows += _bye_rows(letter, sec, sec.get("round"), mine)
    return rows


def past_rows(
    sections: dict[str, dict[str, Any]],
    past: Past,
    byes: dict[str, dict[int, list[int]]] | None = None,
) -> list[tuple[str, Row]]:
    """The earlier rounds' matches and byes of each section, the latest round first, keyed
    ``past:section:round:number`` (``past:section:round:bye:team``); a round's byes as
    the hub listed them (``byes``), else the teams in none of its matches."""
    rows = []
    for letter in sorted(sections):
        sec = sections[letter]
        now = sec.get("round")
        for rnd in sorted(past.get(letter, {}), reverse=True):
            if not isinstance(now, int) or rnd >= now:
                continue
            matches = past[letter][rnd]
            rows += [(f"past:{letter}:{rnd}:{m['match']}", _match_row(letter, m)) for m in matches]
            listed = (byes or {}).get(letter, {}).get(rnd)
            for k, r in _bye_rows(letter, sec, rnd, matches):
                if listed is None or _as_number(k.rsplit(":", 1)[1]) in listed:
                    rows.append((f"past:{letter}:{rnd}:{k}", r))
    return rows


def _match_row(letter: str, m: dict[str, Any]) -> Row:
    out = m.get("out") or []
    return (
        letter,
        m["match"],
        tables_text(m),
        m["round"],
        team_text(m["home"], m.get("home_name") or ""),
        team_text(m["away"], m.get("away_name") or ""),
        score_pair(m.get("home_imps"), m.get("away_imps")),
        score_pair(m.get("home_vp"), m.get("away_vp")),
        ", ".join(str(b) for b in out) if out else "none",
    )


def _bye_rows(
    letter: str, sec: dict[str, Any], rnd: Any, matches: list[dict[str, Any]]
) -> list[tuple[str, Row]]:
    """A row for each team of the section (its ``pairs``) in none of the round's
    ``matches`` (none before the round has any: a draw not yet published)."""
    if not matches:
        return []
    playing = {str(t) for m in matches for t in (m.get("home"), m.get("away"))}
    teams = sec.get("pairs") or {}
    out = []
    for number in sorted((t for t in teams if t not in playing), key=_as_number):
        name = str((teams[number] or {}).get("names") or "")
        row = (letter, "", "", rnd, team_text(_as_number(number), name), "bye", "", "", "")
        out.append((f"bye:{letter}:{number}", row))
    return out


def _as_number(text: str) -> int:
    return int(text) if str(text).isdigit() else 0


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
    """Every match of the current round (or of the earlier ones). Lives on the Textual
    app's event loop."""

    COLUMNS = ("sec", "match", "tables", "round", "home", "away", "IMPs", "VPs", "boards out")


PAST_TITLE = "Earlier rounds"


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
        yield Static(PAST_TITLE, id="matches-past-title")
        yield MatchesTable(id="matches-past", cursor_type="row", zebra_stripes=True)

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
        self.query_one("#matches-table", MatchesTable).fill(rows)
        past = past_rows(sections, self.book.past, self.book.byes)
        self.query_one("#matches-past-title", Static).display = bool(past)
        self.query_one("#matches-past", MatchesTable).display = bool(past)
        self.query_one("#matches-past", MatchesTable).fill(past)
