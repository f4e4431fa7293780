"""What the result screen shows, rebuilt from the store alone (so any number of screens
can run beside the hub): each section's standings after the round the hub last published
(its last complete round when no hub has run on the store), the
places each entrant gained or lost in that round, one overall ranking when a pairs event
has several sections, and the round clock."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile, Scoring
from hub.event.movement.model import Movement
from hub.live.round_clock import RoundClock, RoundTiming
from hub.standings.places import place
from hub.standings.rebuild import pairs_view, teams_view
from hub.standings.rounds import complete_rounds
from hub.store.store import LiveLine, Store
from scoring.methods import kind_of
from scoring.numbers import display
from scoring.standings import ScoreKind


@dataclass(frozen=True, slots=True)
class ScreenRow:
    rank: str
    entrant: str  # "7", "7 NS" in a two-winner field, or the team
    names: str  # the players (or the team's name) as the TD entered them; "" if none
    score: str
    moved: int | None  # places gained (+) or lost (-) in the last round; None: no earlier


@dataclass(frozen=True, slots=True)
class ScreenSection:
    section: str
    after_round: int  # the last round complete at every table (0: none yet)
    rounds: int
    unit: str  # "%", "IMPs" or "VP"
    rows: list[ScreenRow]
    clock: RoundClock  # replayed from the store; the screen asks it the time left
    heading: str = ""  # "Overall" for the ranking of every section; else "Section A"
    provisional: tuple[int, ...] = ()  # boards the director released with open questions


def _rows(
    event: EventFile, section: str, movement: Movement, lines: list[LiveLine]
) -> list[tuple[str, str, int, str, Fraction]]:
    """(rank, entrant, number, score, exact score) in order of the standings."""
    if event.rules.scoring is Scoring.TEAMS:
        view = teams_view(event, section, movement, lines)
        return [
            (
                t.rank,
                str(t.record.team),
                int(str(t.record.team)),
                display(t.record.vp, 2),
                Fraction(t.record.vp),
            )
            for t in view.team_standings
        ]
    view = pairs_view(event, section, movement, lines)
    out = []
    for direction, rows in view.standings.items():
        for s in rows:
            who = f"{s.pair.number}{' ' + direction if direction else ''}"
            out.append((s.rank, who, s.pair.number, display(s.total.total, 2), s.total.total))
    return out


def overall(sections: list[tuple[ScreenSection, dict[str, Fraction]]]) -> ScreenSection:
    """Every section's entrants in one ranking by their score (percentages, or IMPs, are
    comparable across the sections of one pairs event); level scores share the place."""
    entries = [
        (value, sec, row)
        for sec, values in sections
        for row in sec.rows
        for value in [values[row.entrant]]
    ]
    entries.sort(key=lambda e: -e[0])
    rows = []
    for value, sec, row in entries:
        above = sum(1 for v, _, _ in entries if v > value)
        level = sum(1 for v, _, _ in entries if v == value) > 1
        rows.append(
            ScreenRow(
                f"{above + 1}{'=' if level else ''}",
                f"{sec.section}{row.entrant}",
                row.names,
                row.score,
                None,
            )
        )
    first = sections[0][0]
    return ScreenSection(
        "",
        min(sec.after_round for sec, _ in sections),
        max(sec.rounds for sec, _ in sections),
        first.unit,
        rows,
        first.clock,
        heading="Overall",
    )


def _names(contestant: dict[str, Any]) -> str:
    players = " – ".join(p["name"] for p in contestant.get("players") or [] if p.get("name"))
    return contestant.get("name") or players


def barometer(store: Store, event_id: int) -> list[ScreenSection]:
    """Every section's screen, from the store."""
    event = store.event(event_id)
    lines = store.live_lines(event_id)
    clock_records = store.clock_events(event_id)
    timing = RoundTiming(
        event.rules.timing.minutes_per_board,
        event.rules.timing.move_minutes,
        event.rules.timing.round_up_to_minutes,
        event.rules.timing.extra_minutes,
    )
    if event.rules.scoring is Scoring.TEAMS:
        unit = "VP"
    else:
        unit = "%" if kind_of(event.pairs_rules()) is ScoreKind.MATCHPOINTS else "IMPs"
    # the round the hub last published (decisions D12: it waits for the director's
    # questions); a store no hub has run on shows its complete rounds
    published: dict[str, tuple[int, tuple[int, ...]]] = {}
    for a in store.audit_log(event_id, "standings_published"):
        d = a["detail"]
        published[d["section"]] = (d["round"], tuple(d.get("provisional") or ()))
    hub_ran = {c["section"] for c in clock_records}
    out = []
    values: list[dict[str, Fraction]] = []
    for section in store.sections(event_id):
        movement = store.movement(event_id, section)
        mine = [ln for ln in lines if ln.section == section]
        after, provisional = published.get(
            section, (0 if section in hub_ran else complete_rounds(movement, section, mine), ())
        )
        names = {c["number"]: _names(c) for c in store.contestants(event_id, section)}
        now_rows = _rows(event, section, movement, [ln for ln in mine if ln.round <= after])
        before = (
            {
                who: place(rank)
                for rank, who, _, _, _ in _rows(
                    event, section, movement, [ln for ln in mine if ln.round < after]
                )
            }
            if after > 1
            else {}
        )
        rows = [
            ScreenRow(
                rank,
                who,
                names.get(number, ""),
                score,
                before[who] - place(rank) if who in before else None,
            )
            for rank, who, number, score, _ in now_rows
        ]
        values.append({who: exact for _, who, _, _, exact in now_rows})
        boards = {
            r: len(movement.round_rows(r, section)[0].boards) for r in range(1, movement.rounds + 1)
        }
        clock = RoundClock(timing, boards)
        clock.replay([c for c in clock_records if c["section"] == section])
        out.append(
            ScreenSection(
                section, after, movement.rounds, unit, rows, clock, provisional=provisional
            )
        )
    if len(out) > 1 and unit != "VP":
        out.append(overall(list(zip(out, values, strict=True))))
    return out
