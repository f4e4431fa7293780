"""Build the report model from the store: the ranking, travellers and score cards of each
section, scored by the same code as the live hub (``hub/standings/rebuild.py``).

Nothing is hidden or withheld: the report is the final result. A stored line that scoring
cannot read (a sit-out's pair 0, say) is left off the traveller rather than stopping the
report: the ranking is the standings the rebuild gives.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction

from hub.event.event_file import EventFile, Scoring
from hub.event.hand_records import section_deals
from hub.report import cells
from hub.report.hands import double_dummy_text, hands_of
from hub.report.knockout_build import with_knockout
from hub.report.labels import labeller
from hub.report.model import (
    BoardTraveller,
    CardRow,
    RankingGroup,
    RankingRow,
    ReportModel,
    ScoreCard,
    SectionReport,
    TravellerRow,
)
from hub.report.team_build import team_parts, vp_text, with_board_imps
from hub.report.team_results import section_team_results
from hub.report.words import words as words_of
from hub.standings.left_out import usable_lines
from hub.standings.rebuild import SectionView, rebuild, traveller_line
from hub.standings.rows import names_of
from hub.store.store import Store, StoredResult
from scoring.board import board_dealer, board_vulnerability
from scoring.board_score import ScoredLine, ScoreKind

log = logging.getLogger(__name__)

Key = tuple[int, int | None, int, int]  # board, round, NS pair, EW pair


def event_language(event: EventFile) -> str:
    """The event file's ``[event] language`` ("en" while the key is missing)."""
    return str(getattr(event.event, "language", None) or "en")


def build_report(
    store: Store, event_id: int, language: str | None = None, *, double_dummy: bool = False
) -> ReportModel:
    """The report of ``event_id`` in ``language`` (default: the event's own language). The
    travellers carry the deals of the event's hand records; with ``double_dummy`` also the
    makeable contracts and par (when ``hub.event.double_dummy`` is there)."""
    event = store.event(event_id)
    deals = section_deals(
        event, {s: store.hand_records(event_id, s) for s in range(len(event.sessions))}
    )
    lang = language or event_language(event)
    w = words_of(lang)
    teams = event.rules.scoring is Scoring.TEAMS
    imps = not teams and event.rules.scoring is not Scoring.MP
    views = rebuild(store, event_id)
    sections = []
    for letter, view in views.items():
        names = names_of(store.contestants(event_id, letter))
        label = labeller(letter, view.movement, w)
        results = store.live_results(event_id, letter)
        section = _section(view, results, names, label, w, teams)
        if teams:
            section = _with_matches(section, store, event_id, view, names, w)
            section = with_knockout(section, store, event, event_id, view.movement, names, lang)
        boards = {b: d for (sec, b), d in deals.items() if sec == letter}
        sections.append(with_hands(section, boards, double_dummy))
    session = event.sessions[0]
    when = session.date.isoformat() if session.date else ""
    subtitle = " · ".join(x for x in (session.name, when, event.event.venue or "") if x)
    return ReportModel(event.event.name, subtitle, lang, w, imps, teams, tuple(sections))


def _with_matches(
    section: SectionReport,
    store: Store,
    event_id: int,
    view: SectionView,
    names: Mapping[int, str],
    w: Mapping[str, str],
) -> SectionReport:
    """A teams section with its matches, byes, team cards, cross-table and the IMPs of
    each traveller line (issue [MENDS] #25), scored as the standings are."""
    results = section_team_results(store, event_id, view.section, view.movement)
    players = {
        int(c["number"]): ", ".join(p["name"] for p in c.get("players") or [] if p.get("name"))
        for c in store.contestants(event_id, view.section)
    }
    parts = team_parts(results, view.team_standings, names, players, w)
    return replace(
        section,
        travellers=with_board_imps(section.travellers, results),
        matches=parts.matches,
        byes=parts.byes,
        team_cards=parts.cards,
        cross_table=parts.cross_table,
    )


def with_hands(
    section: SectionReport, deals: Mapping[int, str], double_dummy: bool
) -> SectionReport:
    """``section`` with each traveller's deal (and its makeable contracts and par)."""
    travellers = []
    for b in section.travellers:
        deal = deals.get(b.board)
        hands = hands_of(deal)
        makeable, par = double_dummy_text(deal, b.board) if deal and double_dummy else ((), "")
        travellers.append(replace(b, hands=hands, makeable=makeable, par=par))
    return replace(section, travellers=tuple(travellers))


def _section(
    view: SectionView,
    results: list[StoredResult],
    names: Mapping[int, str],
    label: Callable[[int], str],
    w: Mapping[str, str],
    teams: bool,
) -> SectionReport:
    scored: dict[Key, ScoredLine] = {}
    kind = ScoreKind.MATCHPOINTS
    for board_score in view.boards:
        kind = board_score.kind
        for line in board_score.scored_lines():
            scored[(board_score.board, line.line.round, line.line.ns, line.line.ew)] = line
    mp = kind is ScoreKind.MATCHPOINTS
    rankings = _team_ranking(view, names, w) if teams else _pair_ranking(view, names, label, w)
    travellers: list[BoardTraveller] = []
    cards: dict[int, list[CardRow]] = defaultdict(list)
    by_board: dict[int, list[StoredResult]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    for board, rows in sorted(by_board.items()):
        lines = []
        ordered = sorted(rows, key=lambda x: (x.table, x.round))
        good, bad = usable_lines(ordered, traveller_line)  # the standings' left-out rule (F2)
        for item in bad:  # scoring cannot read it (pair 0, no score): left off, logged
            log.warning("report: %s", item.text())
        for r, read in good:
            score_ns = read.score_ns
            sl = scored.get((board, r.round, r.ns_pair, r.ew_pair))
            lines.append(_traveller_row(r, score_ns, sl, label, w, mp))
            if sl is not None and not teams:
                for side in ("NS", "EW"):
                    me, them = (r.ns_pair, r.ew_pair) if side == "NS" else (r.ew_pair, r.ns_pair)
                    cards[me].append(_card_row(r, score_ns, sl, side, them, names, label, w, mp))
        dealer = cells.seat_text(board_dealer(board).name, w)
        vul = w[f"vul_{board_vulnerability(board).value}"]
        travellers.append(BoardTraveller(board, dealer, vul, tuple(lines)))
    score_cards = () if teams else _cards(view, cards, names, label, mp, w["sit_out"])
    return SectionReport(
        view.section,
        view.movement.layout.description,
        rankings,
        tuple(travellers),
        score_cards,
    )


def _ordered(view: SectionView) -> list[tuple[str | None, list]]:
    """The standings' fields with NS first."""
    order = {"NS": 0, "EW": 1}
    return sorted(view.standings.items(), key=lambda kv: order.get(kv[0] or "", 2))


def _pair_ranking(
    view: SectionView, names: Mapping[int, str], label: Callable[[int], str], w: Mapping[str, str]
) -> tuple[RankingGroup, ...]:
    groups = []
    for direction, table in _ordered(view):
        rows = []
        for s in table:
            t = s.total
            n = t.pair.number
            points = cells.number_text(t.points)
            if t.top is not None:
                total = cells.percent_text(t.total)
                points = f"{points} / {cells.number_text(t.top)}"
            else:
                total = cells.total_text(t.total)
            rows.append(RankingRow(s.rank, n, label(n), names.get(n, ""), total, points, t.boards))
        title = w[direction.lower()] if direction else ""
        groups.append(RankingGroup(title, tuple(rows)))
    return tuple(groups)


def _team_ranking(
    view: SectionView, names: Mapping[int, str], w: Mapping[str, str]
) -> tuple[RankingGroup, ...]:
    rows = []
    for ts in view.team_standings:
        r = ts.record
        team = int(str(r.team))
        imps = cells.signed_text(Fraction(r.imps_won - r.imps_lost))
        vp = vp_text(Fraction(r.vp))  # two decimals, as the cards and the screens
        rows.append(RankingRow(ts.rank, team, str(team), names.get(team, ""), vp, imps, 0))
    return (RankingGroup("", tuple(rows)),)


def _traveller_row(
    r: StoredResult,
    score_ns: int | None,
    sl: ScoredLine | None,
    label: Callable[[int], str],
    w: Mapping[str, str],
    mp: bool,
) -> TravellerRow:
    ns_score = ew_score = ""
    if score_ns is not None:
        ns_score, ew_score = (str(score_ns), "") if score_ns >= 0 else ("", str(-score_ns))
    ns_points = ew_points = ""
    if sl is not None:
        if mp:
            ns_points, ew_points = (
                cells.number_text(sl.ns_mp or 0),
                cells.number_text(sl.ew_mp or 0),
            )
        else:
            ns_points, ew_points = cells.signed_text(sl.ns_score), cells.signed_text(sl.ew_score)
    return TravellerRow(
        r.table,
        r.round,
        label(r.ns_pair),
        label(r.ew_pair),
        r.adjusted or ("" if score_ns is not None and not r.contract else _contract(r, w)),
        "" if r.adjusted else cells.seat_text(r.declarer, w),
        "" if r.adjusted else cells.result_text(r.contract, r.tricks),
        "" if r.adjusted else cells.lead_text(r.lead),
        ns_score,
        ew_score,
        ns_points,
        ew_points,
    )


def _contract(r: StoredResult, w: Mapping[str, str]) -> str:
    return cells.contract_text(r.contract, w)


def _card_row(
    r: StoredResult,
    score_ns: int | None,
    sl: ScoredLine,
    side: str,
    them: int,
    names: Mapping[int, str],
    label: Callable[[int], str],
    w: Mapping[str, str],
    mp: bool,
) -> CardRow:
    ns = side == "NS"
    score = "" if score_ns is None else str(score_ns if ns else -score_ns)
    mine = sl.ns_score if ns else sl.ew_score
    if mp:
        points = cells.number_text((sl.ns_mp if ns else sl.ew_mp) or 0)
        percent = cells.percent_text(mine)
    else:
        points, percent = cells.signed_text(mine), ""
    opponents = " ".join(x for x in (label(them), names.get(them, "")) if x)
    return CardRow(
        r.round,
        r.board,
        opponents,
        w[side.lower()],
        r.adjusted or ("" if score_ns is not None and not r.contract else _contract(r, w)),
        "" if r.adjusted else cells.seat_text(r.declarer, w),
        "" if r.adjusted else cells.result_text(r.contract, r.tricks),
        score,
        points,
        percent,
    )


def _cards(
    view: SectionView,
    rows: Mapping[int, list[CardRow]],
    names: Mapping[int, str],
    label: Callable[[int], str],
    mp: bool,
    sit_out: str,
) -> tuple[ScoreCard, ...]:
    sit_outs: dict[int, list[CardRow]] = defaultdict(list)  # opposite pair 0 (F2)
    for mr in view.movement.rows:
        if mr.section == view.section and (mr.ns_pair == 0) != (mr.ew_pair == 0):
            pair = mr.ns_pair or mr.ew_pair
            sit_outs[pair].append(CardRow(mr.round, 0, sit_out, "", "", "", "", "", "", ""))
    out = []
    for _direction, table in _ordered(view):
        for s in sorted(table, key=lambda s: s.total.pair.number):
            t = s.total
            n = t.pair.number
            mine = sorted(
                [*rows.get(n, []), *sit_outs.get(n, [])], key=lambda c: (c.round, c.board)
            )
            if mp:
                points = f"{cells.number_text(t.points)} / {cells.number_text(t.top or 0)}"
                total = cells.percent_text(t.total)
            else:
                points, total = "", cells.total_text(t.total)
            out.append(ScoreCard(n, label(n), names.get(n, ""), s.rank, tuple(mine), points, total))
    return tuple(out)
