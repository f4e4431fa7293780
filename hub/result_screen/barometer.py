"""What the result screen draws, from what the feed told it (``ScreenState``): each
section's standings as the hub last published them, the places each entrant gained or lost
in that round, a teams section's matches of the current round (IMPs, VPs, boards still
out), then one overall ranking when a pairs event has several sections."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from drivers.clock.show import ClockShow
from hub.api.match_news import tables_text
from hub.result_screen.state import ScreenState, SectionFeed
from hub.standings.places import overall_ranking, place
from scoring.numbers import display


@dataclass(frozen=True, slots=True)
class ScreenRow:
    rank: str
    entrant: str  # "7", "7 NS" in a two-winner field, the team; "A7" in the overall ranking
    names: str  # the players (or the team's name) as the TD entered them; "" if none
    score: str  # as the hub displays it: "56.15", "+3.25", "33.27"
    moved: int | None  # places gained (+) or lost (-) in the round; None: no earlier place


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One match of a teams round as the screen draws it."""

    tables: str  # "1/2": the open room's table, the closed room's
    home: str  # "1 Lions"
    away: str  # "4 Foxes"
    imps: str  # "10 – 0"; "" before a board is played in both rooms
    vp: str  # "15.00 – 5.00"; ""
    out: str  # "board 2 out", "2 boards out"; "" when every board is compared


@dataclass(frozen=True, slots=True)
class ScreenSection:
    section: str  # "" for the overall ranking
    after_round: int  # the round whose standings the hub last published (0: none yet)
    rounds: int
    unit: str  # "%", "IMPs" or "VP"
    rows: list[ScreenRow]
    heading: str = ""  # "Overall" for the ranking of every section; else "Section A"
    provisional: tuple[int, ...] = ()  # boards the director released with open questions
    hidden: bool = False  # standings of a round the event hides (rows left out)
    final: bool = False  # the final results
    waiting: bool = False  # the round's clock waits for the director's start
    # a teams section's matches of the round, drawn on pages of their own after the rows
    match_round: int = 0  # their round (0: none, a pairs section)
    matches: tuple[MatchLine, ...] = ()  # none while hidden
    matches_hidden: bool = False  # a round whose rankings the event hides (F13)
    matches_page: bool = False  # this page shows the matches (``app.pages``)
    knockout: dict[str, Any] | None = None  # a knockout section's bracket (docs/api.md)
    bracket_page: bool = False  # this page shows the bracket (``app.pages``)


def entrant(row: Mapping[str, Any]) -> str:
    """How the screen names a row's entrant: the team, or the pair as the room numbers it
    ("EW 3" in a Mitchell), else its number (with its direction in a two-winner field)."""
    if "team" in row:
        return str(row["team"])
    if row.get("label"):
        return str(row["label"])
    return f"{row['pair']}{' ' + row['direction'] if row.get('direction') else ''}"


def screen_row(row: Mapping[str, Any]) -> ScreenRow:
    """A published row as drawn; it moved from its rank after the previous round."""
    before = row.get("previous_rank")
    moved = place(before) - place(row["rank"]) if before else None
    return ScreenRow(row["rank"], entrant(row), row.get("name") or "", row["text"], moved)


def overall(sections: list[SectionFeed]) -> ScreenSection:
    """Every section's published entrants in one ranking (decisions D4: by exact totals,
    level totals share the place)."""
    hidden = any(s.hidden for s in sections)
    ranked = [] if hidden else overall_ranking((s.letter, s.rows) for s in sections)
    rows = [
        ScreenRow(
            p.rank, f"{p.section}{entrant(p.row)}", p.row.get("name") or "", p.row["text"], None
        )
        for p in ranked
    ]
    return ScreenSection(
        "",
        min(s.published_round for s in sections),
        max(s.rounds for s in sections),
        sections[0].unit,
        rows,
        heading="Overall",
        hidden=hidden,
        final=all(s.final for s in sections),
    )


def screen_sections(state: ScreenState) -> list[ScreenSection]:
    """Every section's page(s), in section order (a teams section's with its round's
    matches), then the overall ranking of a pairs event with several sections."""
    feeds = [state.sections[k] for k in sorted(state.sections)]
    out = [
        ScreenSection(
            s.letter,
            s.published_round,
            s.rounds,
            s.unit,
            [] if s.hidden else [screen_row(r) for r in s.rows],
            provisional=s.provisional,
            # F13: hidden on the projector as at the tables, after the session's end too
            # while the final standings are withheld (the final ones are never hidden)
            hidden=s.hidden,
            final=s.final,
            waiting=s.waiting,
            knockout=s.knockout,
            **round_matches(s),
        )
        for s in feeds
    ]
    if len(feeds) > 1 and all(s.kind == "pairs" for s in feeds):
        out.append(overall(feeds))
    return out


def round_matches(s: SectionFeed) -> dict[str, Any]:
    """A teams section's matches of the round as its ScreenSection holds them; none shown
    in a round whose rankings the event hides until the standings after the last round
    are published (TD trial F13)."""
    if s.kind != "teams" or not s.matches:
        return {}
    hidden = s.matches_hidden and s.published_round < s.rounds
    return {
        "match_round": int(s.matches[0].get("round") or s.round),
        "matches": () if hidden else tuple(match_line(m) for m in s.matches),
        "matches_hidden": hidden,
    }


def match_line(m: Mapping[str, Any]) -> MatchLine:
    """A match of the feed (exact IMPs and VPs as strings, null before a board is scored)
    as drawn: IMPs whole or to two decimals, VPs to two decimals."""
    home = f"{m['home']} {m.get('home_name') or ''}".strip()
    away = f"{m['away']} {m.get('away_name') or ''}".strip()
    imps = vp = ""
    if m.get("home_imps") is not None and m.get("home_vp") is not None:
        imps = f"{_imps(m['home_imps'])} – {_imps(m['away_imps'])}"
        vp = f"{display(Fraction(m['home_vp']), 2)} – {display(Fraction(m['away_vp']), 2)}"
    out = list(m.get("out") or [])
    left = ""
    if len(out) == 1:
        left = f"board {out[0]} out"
    elif out:
        left = f"{len(out)} boards out"
    tables = tables_text(m)
    return MatchLine(tables, home, away, imps, vp, left)


def _imps(exact: str) -> str:
    x = Fraction(exact)
    return str(x.numerator) if x.denominator == 1 else display(x, 2)


def clock_show(state: ScreenState, section: ScreenSection, now: float) -> ClockShow | None:
    """The round clock beside a page: its section's, or the first section's beside the
    overall ranking."""
    letter = section.section or min(state.sections, default="")
    feed = state.sections.get(letter)
    return feed.clock.show(now) if feed and feed.clock else None


def played_text(sec: ScreenSection) -> str:
    """The line under a page's heading: the round the standings are after, "Final results"
    only when they are the last round's (the session may end while the last round's
    standings are withheld for the director: then they are not the final results yet)."""
    if not sec.after_round:
        return "no standings published yet"
    played = f"after round {sec.after_round} of {sec.rounds}"
    return f"Final results ({played})" if sec.final and sec.after_round >= sec.rounds else played
