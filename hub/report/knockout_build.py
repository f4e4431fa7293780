"""A knockout section from the store, for the printed report and the exports (issue
[KNOCKOUT]): each bracket match as it was played and decided, and the final places.

The bracket, where it stands and its decisions come from ``stored_bracket`` (the audit
trail's recorded outcomes: a later correction of a board moves no team, D23); each match
played at the tables is scored from the stored results as the running hub scores it
(``hub.live.knockout.ko_section``): IMPs over its segments plus the carry-over, the event's
tie rule (``scoring.knockout.ko_match.decide``), never VPs. The report's cells and a
bracket dict shaped like the live one (``hub/live/knockout/bracket_view.py``, for
``bracket_picture``) are made from those exact values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile, KnockoutMovement
from hub.event.movement.model import Movement
from hub.report import cells
from hub.report.bracket_picture import bracket_svg
from hub.report.knockout_model import (
    KnockoutReport,
    KnockoutResults,
    KnockoutSectionReport,
    KoMatchLine,
    KoMatchResult,
    KoPlaceLine,
    KoSegmentCell,
    ko_words,
)
from hub.report.model import SectionReport
from hub.report.team_build import team_label
from hub.report.team_results import TeamMatch, section_team_results
from hub.standings.knockout_decisions import KoDecisions
from hub.standings.knockout_outcome import match_lot_seed, match_outcome
from hub.standings.knockout_stored import knockout_section, stored_bracket
from hub.standings.left_out import usable_lines
from hub.standings.rebuild import traveller_line
from hub.standings.team_section import PlannedMatch, TeamSection
from hub.store.store import Store
from scoring.errors import ScoringInputError
from scoring.knockout.bracket import Match, SlotKind
from scoring.knockout.ko_match import KoOutcome, Side
from scoring.knockout.routing import BracketState

Scores = Mapping[tuple[int, int, int], int | None]  # table, movement round, board


def knockout_results(
    store: Store, event_id: int, letter: str, movement: Movement
) -> KnockoutResults | None:
    """Section ``letter``'s knockout from the store (None: the section is no knockout)."""
    event = store.event(event_id)
    found = stored_bracket(event, letter, movement, store.audit_log(event_id))
    if found is None:
        return None
    bracket, state, decisions = found
    good, _bad = usable_lines(  # the bad ones: the standings name them
        [x for x in store.live_lines(event_id) if x.section == letter], traveller_line
    )
    scores = {(r.table, r.round, r.board): ln.score_ns for r, ln in good}
    played = {
        (m.round, m.number - 1): m
        for m in section_team_results(store, event_id, letter, movement).matches
    }
    plan = TeamSection(event, letter, movement)
    sec = knockout_section(event, letter)
    assert sec is not None and isinstance(sec.movement, KnockoutMovement)
    ko = movement.layout.knockout
    assert ko is not None
    at = {name: (k, pair) for k, pair, name in ko.matches}
    matches = []
    for m in bracket.matches:
        where = at.get(m.name)
        outcome = None
        if where is not None and where in played and len(m.slots) == 2:
            planned = plan.plan.get((where[1], where[0]))
            outcome = _outcome(
                m, sec.movement, state, decisions, played[where], planned, scores,
                match_lot_seed(ko.lot_seed, bracket, m.name),
            )  # fmt: skip
        tables = movement.layout.matches[where[1]] if where is not None else None
        matches.append(_result(m, state, decisions, outcome, tables))
    places = state.places()
    return KnockoutResults(
        letter, bracket.name, bracket.rounds, tuple(matches), places, state.finished
    )


def _outcome(
    m: Match,
    spec: KnockoutMovement,
    state: BracketState,
    decisions: KoDecisions,
    played: TeamMatch,
    planned: PlannedMatch | None,
    scores: Scores,
    lot_seed: int,
) -> KoOutcome | None:
    """The match scored from the stored boards by the event's rule, as the hub does (None
    for a match the rule cannot read: a board out of turn shows no score, not a failure)."""
    carry = (Fraction(0), Fraction(0))
    if played.result is not None:  # the carry-over less IMP penalties, as the match has it
        carry = (played.result.home_carry_over, played.result.away_carry_over)
    boards = []
    for n, seg in enumerate(planned.segments if planned is not None else (), start=1):
        for b in seg.boards:
            ns = scores.get((seg.home_ns_table, seg.round, b))
            ew = scores.get((seg.home_ew_table, seg.home_ew_round, b))
            if ns is not None and ew is not None:
                boards.append((n, b, ns, ew))
    teams = (int(played.home), int(played.away))
    ranks = (state.entries[str(teams[0])].rank, state.entries[str(teams[1])].rank)
    try:
        return match_outcome(
            m, spec, boards, carry, teams, ranks, lot_seed, decisions.walk_overs.get(m.name)
        )
    except ScoringInputError:
        return None


def _result(
    m: Match,
    state: BracketState,
    decisions: KoDecisions,
    outcome: KoOutcome | None,
    tables: tuple[int, int] | None,
) -> KoMatchResult:
    """The match's exact result: the recorded outcome names the winner (D23), the scored
    boards say by how much and how it was decided."""
    teams = tuple(None if t is None else int(t) for t in state.teams(m.name))
    known = all(t is not None for t in teams)
    try:
        carry = state.carry_over(m.name) if known else ()
    except ScoringInputError:  # a share of a margin the store does not hold
        carry = ()
    fixed = decisions.outcomes.get(m.name)
    winner = int(fixed.order[0]) if fixed is not None else None
    if winner is None and outcome is not None and outcome.winner is not None:
        winner = teams[0 if outcome.winner is Side.HOME else 1]  # decided, not yet recorded
    how, nxt = "", ""
    if state.bye(m.name):
        how = "bye"
        winner = next((t for t in teams if t is not None), None)
    elif fixed is not None and fixed.walk_over:
        how = "walk_over"
    elif outcome is not None and outcome.decided_by is not None:
        how = outcome.decided_by.value
    elif outcome is not None and outcome.next is not None:
        nxt = outcome.next.value
    elif fixed is not None:
        how = "result"  # recorded, its boards not readable now
    segments = outcome.segments if outcome is not None and how != "walk_over" else ()
    totals = (outcome.home, outcome.away) if segments and outcome is not None else None
    feeds = tuple((s.match, s.place) if s.kind is SlotKind.PLACED else None for s in m.slots)
    return KoMatchResult(
        m.name, m.round, teams, tables, carry, segments, m.segments, totals, winner, how, nxt,
        feeds, m.segments * m.boards_per_segment,
    )  # fmt: skip


def knockout_report(
    results: KnockoutResults, names: Mapping[int, str], language: str
) -> KnockoutReport:
    """The report's cells of a knockout: places best first, matches in bracket order
    (the rounds in playing order), the picture of the bracket."""
    w = ko_words(language)
    places = tuple(
        KoPlaceLine(str(p), int(p.team), p.team, names.get(int(p.team), "")) for p in results.places
    )
    rounds = tuple(dict.fromkeys([*results.rounds, *(m.round for m in results.matches)]))
    order = {r: i for i, r in enumerate(rounds)}
    ranked = sorted(results.matches, key=lambda m: order[m.round])
    matches = tuple(_line(m, names, w) for m in ranked)
    picture = bracket_svg(bracket_dict(results, names))
    return KnockoutReport(results.name, rounds, places, matches, picture, w)


def _line(m: KoMatchResult, names: Mapping[int, str], w: Mapping[str, str]) -> KoMatchLine:
    home, away = (*m.teams, None, None)[:2]
    carry = [cells.number_text(c) for c in m.carry] or ["", ""]
    segs = []
    extension = w["extra_set"] if m.next != "sudden_death" else w["sudden_death"]
    for s in m.segments:
        if s.segment > m.regular:
            kind = w["sudden_death"] if m.decided_by == "sudden_death" else extension
            extra = s.segment - m.regular
            label = kind if extra == 1 else f"{kind} {extra}"
        else:
            label = str(s.segment)
        segs.append(KoSegmentCell(label, cells.number_text(s.home_imps), _n(s.away_imps)))
    totals = m.totals
    decided = w.get(f"by_{m.decided_by}", "") if m.decided_by else ""
    if m.next:
        decided = f"{w[m.next]} …"
    elif not m.decided_by and m.winner is None:
        decided = w["not_played"]
    return KoMatchLine(
        m.match,
        m.round,
        home or 0,
        "" if home is None else team_label(home, names),
        away or 0,
        "" if away is None else team_label(away, names),
        "/".join(str(t) for t in m.tables) if m.tables else "",
        carry[0],
        carry[1] if len(carry) > 1 else "",
        tuple(segs),
        "" if totals is None else _n(totals[0]),
        "" if totals is None else _n(totals[1]),
        m.winner or 0,
        "" if m.winner is None else team_label(m.winner, names),
        decided,
    )


def _n(value: Fraction) -> str:
    return cells.number_text(value)


def bracket_dict(results: KnockoutResults, names: Mapping[int, str]) -> dict[str, Any]:
    """The bracket in the live view's shape (``bracket_view``: docs/api.md ``ko_show``),
    for ``bracket_picture.bracket_svg``; exact values as strings (D4)."""

    def team(t: int | None) -> dict[str, Any] | None:
        return None if t is None else {"team": t, "name": names.get(t, "")}

    return {
        "section": results.section,
        "name": results.name,
        "rounds": list(results.rounds),
        "matches": [_view_match(m, team) for m in results.matches],
        "choosing": [],
        "proposal": None,
        "places": [{**(team(int(p.team)) or {}), "place": str(p)} for p in results.places],
        "finished": results.finished,
    }


def _view_match(m: KoMatchResult, team: Any) -> dict[str, Any]:
    winner = m.teams.index(m.winner) if m.winner in m.teams else None
    decided = m.decided_by not in ("", "bye")
    return {
        "match": m.match,
        "round": m.round,
        "boards": m.boards,
        "teams": [team(t) for t in m.teams],
        "feeds": [None if f is None else {"match": f[0], "place": f[1]} for f in m.feeds],
        "bye": m.decided_by == "bye",
        "tables": list(m.tables) if m.tables else None,
        "carry": [str(c) for c in m.carry] or None,
        "segments": [
            {"segment": s.segment, "home": str(s.home_imps), "away": str(s.away_imps)}
            for s in m.segments
        ],
        "totals": None if m.totals is None else [str(x) for x in m.totals],
        "winner": winner,
        "decided_by": m.decided_by if decided else None,
        "next": m.next or None,
        "walk_over": m.walk_over,
        "state": "bye" if m.decided_by == "bye" else "decided" if decided else "waiting",
    }


def with_knockout(
    section: SectionReport,
    store: Store,
    event: EventFile,
    event_id: int,
    movement: Movement,
    names: Mapping[int, str],
    language: str,
) -> SectionReport:
    """A knockout section's report: its places and matches in place of the VP ranking,
    the VP match list, the team cards and the cross-table (a knockout has no VPs); any
    other section as it is."""
    if knockout_section(event, section.letter) is None:
        return section
    results = knockout_results(store, event_id, section.letter, movement)
    if results is None:
        return section
    report = knockout_report(results, names, language)
    plain = replace(section, rankings=(), matches=(), byes=(), team_cards=(), cross_table=None)
    fields = {f: getattr(plain, f) for f in SectionReport.__dataclass_fields__}
    return KnockoutSectionReport(**fields, knockout=report)
