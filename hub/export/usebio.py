"""USEBIO 1.2 XML export of an event (``bridgehub event export --usebio FILE``): the file a
national body or a club website takes after a session.

The USEBIO DTD (v1.2) is not public, and no copy of it was found. The file is shaped like
real USEBIO 1.2 files of two scoring programs (``tests/data/usebio/``): **Compscore3**'s
elements, order and values throughout (``EVENT_TYPE`` ``MP_PAIRS``, ``BUTLER_PAIRS``,
``CROSS_IMP``; pair numbers ``2NS``/``2EW`` in a two-winner Mitchell, ``7`` in a Howell;
``TOTAL_SCORE`` the matchpoints or IMPs, ``PERCENTAGE`` at matchpoints; ``A6040`` for an
artificial score; ``BOARD_AVERAGE``, the Butler datum; ``HANDSET`` for the deals), and the
NZ Scorer converter's ``SECTION SECTION_ID="A"`` wrapper when an event has several
sections (Compscore3's files have one). Places are whole numbers, shared places repeated;
a pair or team marked not competing (decisions D16) has no ``PLACE``.

Left out, because the hub does not hold them: ``CLUB_ID_NUMBER``'s value, masterpoints
(``MASTER_POINT_*``, ``MASTER_POINTS_AWARDED``; ``MPS_AWARDED_FLAG`` is ``N``), the
``P2P_CHARGE_RATE``, the scorer's ``CONTACT`` and the players' club numbers.

Teams: neither producer's files include a teams event, so the names there are ours: a
``TEAM`` in ``PARTICIPANTS`` like a ``PAIR`` (``TEAM_NUMBER``, ``TEAM_NAME``, the players,
``TOTAL_SCORE`` the VPs, ``PLACE``), ``EVENT_TYPE`` ``TEAMS`` (the NZ converter's word), and
each board's traveller with the team numbers as NS and EW and no points elements. A
knockout (issue [KNOCKOUT]) has no VPs: each ``TEAM``'s ``PLACE`` is its final place (a
shared range's first, "5-8" → 5, as other shared places), no ``TOTAL_SCORE``, and a
``MATCH`` per bracket match (our naming, ``usebio_build.match_element``; docs/exports.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from hub.event.event_file import EventFile
from hub.event.event_rules import MatchpointOptions
from hub.event.pair_labels import PairLabels
from hub.export import usebio_cells as cells
from hub.export.board_lines import board_lines, first_result_day, scored_lines
from hub.export.usebio_build import usebio_tree
from hub.export.usebio_model import (
    Board,
    Entrant,
    Event,
    EventType,
    Hand,
    Line,
    Match,
    MatchSegment,
    Player,
    Section,
)
from hub.report.knockout_build import knockout_results
from hub.report.knockout_model import KnockoutResults
from hub.standings.places import place
from hub.standings.rebuild import SectionView, rebuild
from hub.store.store import Store, StoredResult
from scoring.board_score import ScoredLine
from scoring.butler import ButlerRules, board_datums
from scoring.numbers import display


def write_usebio(store: Store, event_id: int, path: Path) -> Path:
    """Write ``event_id``'s final results as a USEBIO 1.2 file at ``path``; returns it."""
    tree = usebio_tree(usebio_event(store, event_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    # empty elements written open and closed (<VENUE></VENUE>), as Compscore3 does
    tree.write(path, encoding="UTF-8", xml_declaration=True, short_empty_elements=False)
    return path


def usebio_event(store: Store, event_id: int) -> Event:
    """The file's content from the store, scored by the live hub's own rebuild."""
    event = store.event(event_id)
    event_type = EventType.of(event.rules.scoring)
    views = rebuild(store, event_id)
    contestants = store.contestants(event_id)
    sections = []
    for letter, view in views.items():
        results = store.live_results(event_id, letter)
        ko = None
        if event_type is EventType.TEAMS:
            ko = knockout_results(store, event_id, letter, view.movement)
        sections.append(_section(event, event_type, view, results, contestants, ko))
    session = event.sessions[0]
    winners = max((v.movement.layout.winners for v in views.values()), default=1)
    return Event(
        club_name=event.event.organiser or event.event.venue or event.event.name,
        event_type=event_type,
        identifier=str(event_id),
        description=event.event.name,
        program_version=_program_version(),
        winner_type=1 if event_type is EventType.TEAMS else winners,
        title=session.name,
        date=cells.date_text(session.date or first_result_day(store, event_id)),
        venue=event.event.venue or "",
        session_count=len(event.sessions),
        sections=tuple(sections),
        hands=_hands(store, event_id, event),
    )


def _section(
    event: EventFile,
    event_type: EventType,
    view: SectionView,
    results: list[StoredResult],
    contestants: list[dict[str, Any]],
    ko: KnockoutResults | None = None,
) -> Section:
    teams = event_type is EventType.TEAMS
    mine = [c for c in contestants if c["section"] == view.section]
    labels = PairLabels.of(view.movement, view.section)

    def number(n: int) -> str:
        return str(n) if teams else cells.pair_number(labels, n)

    entrants = _teams(view, mine) if teams else _pairs(view, mine, labels)
    boards = _boards(event, event_type, view, results, number)
    if ko is not None:  # a knockout: the bracket's places and its matches, no VPs
        return Section(view.section, _knockout_teams(ko, mine), boards, _matches(ko))
    return Section(view.section, entrants, boards)


def _knockout_teams(ko: KnockoutResults, contestants: list[dict[str, Any]]) -> tuple[Entrant, ...]:
    """A knockout's teams by their final place (a shared range, "5-8": its first place on
    each of its teams, as shared places are); a team not placed yet last, without one."""
    by_number = {int(c["number"]): c for c in contestants}
    placed = {int(p.team): p.first for p in ko.places}
    order = [int(p.team) for p in ko.places] + sorted(set(by_number) - set(placed))
    return tuple(
        Entrant(str(t), "", _players(by_number.get(t)), placed.get(t), "", None,
                (by_number.get(t) or {}).get("name") or "")
        for t in order
    )  # fmt: skip


def _matches(ko: KnockoutResults) -> tuple[Match, ...]:
    """Every match of the bracket that has its teams, in bracket order."""
    out = []
    for m in ko.matches:
        if all(t is None for t in m.teams):
            continue
        home, away = (*("" if t is None else str(t) for t in m.teams), "", "")[:2]
        carry: list[str | None] = [cells.points_text(c) for c in m.carry] or [None, None]
        totals: list[str | None] = [None, None]
        if m.totals is not None:
            totals = [cells.points_text(x) for x in m.totals]
        segments = tuple(
            MatchSegment(s.segment, cells.points_text(s.home_imps), cells.points_text(s.away_imps))
            for s in m.segments
        )
        winner = None if m.winner is None else str(m.winner)
        out.append(
            Match(m.match, m.round, home, away, carry[0], carry[1], segments, totals[0],
                  totals[1], winner, m.decided_by or None)
        )  # fmt: skip
    return tuple(out)


def _players(contestant: Mapping[str, Any] | None) -> tuple[Player, ...]:
    players = (contestant or {}).get("players") or []
    return tuple(Player(p.get("name") or "", p.get("number")) for p in players)


def competing_places(ranked: list[tuple[str, bool]]) -> list[int | None]:
    """Places among the contestants that compete (decisions D16: a pair or team marked
    not competing counts for the field but takes no place): for each ``(rank, competing)``
    in ranking order, 1 + the competing ones placed strictly ahead (a shared place stays
    shared), or None for one not competing."""
    ahead = [place(rank) for rank, competing in ranked if competing]
    return [
        1 + sum(p < place(rank) for p in ahead) if competing else None for rank, competing in ranked
    ]


def _competing(contestant: Mapping[str, Any] | None) -> bool:
    return not (contestant or {}).get("not_competing")


def _pairs(
    view: SectionView, contestants: list[dict[str, Any]], labels: PairLabels
) -> tuple[Entrant, ...]:
    """Every pair, NS field first, best first in each field; a pair not competing has no
    ``PLACE`` and the others are placed as if it had not played (D16)."""
    by_number = {int(c["number"]): c for c in contestants}
    out = []
    for direction, table in sorted(view.standings.items(), key=lambda kv: kv[0] == "EW"):
        ranked = [(s.rank, _competing(by_number.get(s.total.pair.number))) for s in table]
        for s, placed in zip(table, competing_places(ranked), strict=True):
            t = s.total
            n = t.pair.number
            mp = t.top is not None
            out.append(
                Entrant(
                    cells.pair_number(labels, n),
                    direction or "",
                    _players(by_number.get(n)),
                    placed,
                    display(t.points, 2),
                    display(t.total, 2) if mp else None,
                )
            )
    return tuple(out)


def _teams(view: SectionView, contestants: list[dict[str, Any]]) -> tuple[Entrant, ...]:
    by_number = {int(c["number"]): c for c in contestants}
    ranked = [
        (ts.rank, _competing(by_number.get(int(str(ts.record.team))))) for ts in view.team_standings
    ]
    out = []
    for ts, placed in zip(view.team_standings, competing_places(ranked), strict=True):
        team = int(str(ts.record.team))
        c = by_number.get(team)
        name = (c or {}).get("name") or ""
        vp = display(Fraction(ts.record.vp), 2)
        out.append(Entrant(str(team), "", _players(c), placed, vp, None, name))
    return tuple(out)


def _boards(
    event: EventFile,
    event_type: EventType,
    view: SectionView,
    results: list[StoredResult],
    number: Callable[[int], str],
) -> tuple[Board, ...]:
    """Each board's traveller: the lines scoring can read (the standings' rule, F2), in
    table order, with both sides' points from the scored board."""
    scored = scored_lines(view)
    datums: dict[int, int] = {}
    rules = None if event_type is EventType.TEAMS else event.pairs_rules()
    for bs in view.boards:
        if isinstance(rules, ButlerRules):
            found = board_datums(bs.traveller, rules)
            if len(found) == 1:  # a fouled board has a datum per version: none is written
                datums[bs.board] = found[0]
    # the event's averages over the defaults: an event file may name only some tokens
    given = event.rules.matchpoints.averages
    averages = {str(k): v for k, v in {**MatchpointOptions().averages, **given}.items()}
    out = []
    for board, good in board_lines(results, "USEBIO export").items():
        lines = []
        for r, read in good:
            sl = scored.get((board, r.round, r.ns_pair, r.ew_pair))
            ns_points, ew_points = _points(sl)
            lines.append(_line(r, read.score_ns, averages, number, ns_points, ew_points))
        out.append(Board(board, tuple(lines), datums.get(board)))
    return tuple(out)


def _points(sl: ScoredLine | None) -> tuple[str | None, str | None]:
    """Matchpoints on the event's scale, or IMPs, for each side."""
    if sl is None:
        return None, None
    if sl.ns_mp is not None and sl.ew_mp is not None:
        return cells.points_text(sl.ns_mp), cells.points_text(sl.ew_mp)
    return cells.points_text(sl.ns_score), cells.points_text(sl.ew_score)


def _line(
    r: StoredResult,
    score_ns: int | None,
    averages: Mapping[str, float],
    number: Callable[[int], str],
    ns_points: str | None,
    ew_points: str | None,
) -> Line:
    ns, ew = number(r.ns_pair), number(r.ew_pair)
    if r.adjusted:
        score = cells.artificial_score(r.adjusted, averages)
        return Line(ns, ew, None, None, None, None, score, ns_points, ew_points)
    contract = cells.contract_text(r.contract)
    passed = contract == "PASS"
    return Line(
        ns,
        ew,
        contract,
        None if passed else (r.declarer or None),
        None if passed else cells.lead_text(r.lead),
        None if passed else r.tricks,
        str(score_ns if score_ns is not None else 0),
        ns_points,
        ew_points,
    )


def _hands(store: Store, event_id: int, event: EventFile) -> dict[int, tuple[Hand, ...]]:
    """The deals of the event's boards (every session's; a later session's board of the
    same number is not repeated)."""
    out: dict[int, tuple[Hand, ...]] = {}
    for index in range(len(event.sessions)):
        for board, deal in sorted(store.hand_records(event_id, index).items()):
            out.setdefault(board, cells.hands_of(deal))
    return out


def _program_version() -> str:
    try:
        return version("bridgehub")
    except PackageNotFoundError:
        return ""
