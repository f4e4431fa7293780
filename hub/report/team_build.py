"""The team parts of a section's report (issue [MENDS] #25): the match list, the byes, the
team cards and the cross-table, as text cells from the exact ``TeamResults`` and the
standings' places; and each team traveller line's IMPs. The live pages rebuild the
cross-table from the matches they may show (``cross_table``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from hub.report import cells
from hub.report.model import BoardTraveller
from hub.report.team_model import (
    ByeLine,
    CrossRow,
    CrossTable,
    MatchBoardRow,
    MatchLine,
    TeamCard,
    TeamCardRow,
)
from hub.report.team_results import Room, TeamMatch, TeamResults
from scoring.numbers import display
from scoring.team_standings import TeamStanding

CROSS_TABLE_MAX = 24  # teams: a larger field's cross-table does not fit a page


@dataclass(frozen=True, slots=True)
class TeamParts:
    """What a teams section adds to the report."""

    matches: tuple[MatchLine, ...]
    byes: tuple[ByeLine, ...]
    cards: tuple[TeamCard, ...]
    cross_table: CrossTable | None


def vp_text(vp: Fraction) -> str:
    """VPs with two decimals, as the ranking shows them: "18.73", "20.00"."""
    return display(vp, 2)


def team_label(team: int, names: Mapping[int, str]) -> str:
    """A team as the lists name it: "8 Hawks" (the number alone without a name)."""
    return f"{team} {names.get(team, '')}".strip()


def team_parts(
    results: TeamResults,
    standings: Sequence[TeamStanding],
    names: Mapping[int, str],
    players: Mapping[int, str],
    w: Mapping[str, str],
) -> TeamParts:
    """The match list (rounds in order), the byes, a card per team in the ranking's order
    and the cross-table (fields of up to ``CROSS_TABLE_MAX`` teams)."""
    matches = tuple(_match_line(m, names, w) for m in results.matches)
    byes = tuple(
        ByeLine(b.round, b.team, team_label(b.team, names), vp_text(b.vp)) for b in results.byes
    )
    order = [int(str(s.record.team)) for s in standings]
    seen = {m.home for m in results.matches} | {m.away for m in results.matches}
    order += [t for t in sorted(seen | {b.team for b in results.byes}) if t not in order]
    cards = tuple(_card(t, results, standings, names, players, w) for t in order)
    totals = {int(str(s.record.team)): vp_text(Fraction(s.record.vp)) for s in standings}
    return TeamParts(matches, byes, cards, cross_table(matches, order, names, totals))


def _match_line(m: TeamMatch, names: Mapping[int, str], w: Mapping[str, str]) -> MatchLine:
    r = m.result
    home_imps = away_imps = home_vp = away_vp = ""
    home_exact = away_exact = ""
    if r is not None:
        home_imps = cells.number_text(r.home_imps + r.home_carry_over)
        away_imps = cells.number_text(r.away_imps + r.away_carry_over)
        if r.home_vp is not None and r.away_vp is not None:
            home_vp, away_vp = vp_text(r.home_vp), vp_text(r.away_vp)
            home_exact, away_exact = str(r.home_vp), str(r.away_vp)
    boards = tuple(
        MatchBoardRow(
            b.board,
            "" if b.home_ns_score is None else str(b.home_ns_score),
            "" if b.home_ew_score is None else str(b.home_ew_score),
            "" if b.home_imps is None else str(max(b.home_imps, 0) or ""),
            "" if b.home_imps is None else str(max(-b.home_imps, 0) or ""),
        )
        for b in m.boards
    )
    return MatchLine(
        m.round,
        m.number,
        m.home,
        team_label(m.home, names),
        m.away,
        team_label(m.away, names),
        home_imps,
        away_imps,
        home_vp,
        away_vp,
        rooms_text(m, w),
        boards,
        home_exact,
        away_exact,
        m.rooms[0].home_ns_table if m.rooms else 0,
        m.rooms[0].home_ew_table if m.rooms else 0,
    )


def rooms_text(m: TeamMatch, w: Mapping[str, str]) -> str:
    """Who sat where: "Table 1: 8 NS – 3 EW · Table 2: 3 NS – 8 EW" (each segment's round
    first when the match has several)."""
    parts = []
    for room in m.rooms:
        where = _room(room, m.home, m.away, w)
        parts.append(f"{w['round']} {room.round}: {where}" if len(m.rooms) > 1 else where)
    return " · ".join(parts)


def _room(room: Room, home: int, away: int, w: Mapping[str, str]) -> str:
    ns, ew = w["ns"], w["ew"]
    first = f"{w['table']} {room.home_ns_table}: {home} {ns} – {away} {ew}"
    second = f"{w['table']} {room.home_ew_table}: {away} {ns} – {home} {ew}"
    if room.ew_round != room.round:  # a three-way's rooms are a round apart
        second += f" ({w['round']} {room.ew_round})"
    return f"{first} · {second}"


def _seats(m: TeamMatch, team: int, w: Mapping[str, str]) -> str:
    """The tables where ``team`` sat NS and EW in the match: "NS 1 · EW 2"."""
    out = []
    for room in m.rooms:
        ns_t, ew_t = room.home_ns_table, room.home_ew_table
        if team != m.home:
            ns_t, ew_t = ew_t, ns_t
        out.append(f"{w['ns']} {ns_t} · {w['ew']} {ew_t}")
    return " / ".join(out)


def _card(
    team: int,
    results: TeamResults,
    standings: Sequence[TeamStanding],
    names: Mapping[int, str],
    players: Mapping[int, str],
    w: Mapping[str, str],
) -> TeamCard:
    """Every round of ``team``: its match (opponent, seats, IMPs, VPs) or its bye; the VPs
    beyond those (carried over, late joiner's, penalties) on a line of their own."""
    standing = next((s for s in standings if int(str(s.record.team)) == team), None)
    rows: list[tuple[int, TeamCardRow, Fraction | None]] = []
    for m in (m for m in results.matches if team in (m.home, m.away)):
        side = m.side(team)
        won = lost = ""
        vp: Fraction | None = None
        if side is not None:
            won = cells.number_text(side.home_imps + side.home_carry_over)
            lost = cells.number_text(side.away_imps + side.away_carry_over)
            vp = side.home_vp
        opponent = team_label(m.opponent(team), names)
        row = TeamCardRow(m.round, opponent, _seats(m, team, w), won, lost, "", "")
        rows.append((m.round, row, vp))
    for b in (b for b in results.byes if b.team == team):
        rows.append((b.round, TeamCardRow(b.round, w["bye"], "", "", "", "", ""), b.vp))
    rows.sort(key=lambda x: x[0])
    shown, running = [], Fraction(0)
    for _, row, vp in rows:
        if vp is not None:
            running += vp
            row = replace(row, vp=vp_text(vp), running=vp_text(running))
        shown.append(row)
    total = Fraction(standing.record.vp) if standing is not None else running
    other = total - running
    imps = ""
    if standing is not None:
        imps = cells.signed_text(Fraction(standing.record.imps_won - standing.record.imps_lost))
    return TeamCard(
        team,
        str(team),
        names.get(team, ""),
        players.get(team, ""),
        standing.rank if standing is not None else "",
        vp_text(total),
        imps,
        tuple(shown),
        vp_text(other) if other else "",
    )


def cross_table(
    matches: Sequence[MatchLine],
    order: Sequence[int],
    names: Mapping[int, str],
    totals: Mapping[int, str] | None = None,
) -> CrossTable | None:
    """Each team's VPs against each other team in ``order`` (several meetings: their VPs
    joined with "/"), and its total: the ranking's (``totals``: byes and adjustments in),
    else its VPs from these matches; None for a field over ``CROSS_TABLE_MAX`` teams or
    with no match scored."""
    scored = [m for m in matches if m.home_vp_exact and m.away_vp_exact]
    if not scored or len(order) > CROSS_TABLE_MAX:
        return None
    met: dict[tuple[int, int], list[str]] = {}
    won: dict[int, Fraction] = {}
    given = totals or {}
    for m in scored:
        for me, them, text, exact in (
            (m.home, m.away, m.home_vp, m.home_vp_exact),
            (m.away, m.home, m.away_vp, m.away_vp_exact),
        ):
            met.setdefault((me, them), []).append(text)
            won[me] = won.get(me, Fraction(0)) + Fraction(exact)
    rows = []
    for t in order:
        line = tuple("–" if o == t else "/".join(met.get((t, o), [])) for o in order)
        rows.append(
            CrossRow(
                t, str(t), names.get(t, ""), line, given.get(t) or vp_text(won.get(t, Fraction(0)))
            )
        )
    return CrossTable(tuple(order), tuple(rows))


def with_board_imps(
    travellers: Sequence[BoardTraveller], results: TeamResults
) -> tuple[BoardTraveller, ...]:
    """The team travellers with each line's IMPs for its NS and EW team (blank until the
    board is in from the match's other room)."""
    out = []
    for b in travellers:
        rows = []
        for t in b.rows:
            got = results.board_imps.get((t.table, t.round, b.board))
            if got is None:
                rows.append(t)
                continue
            ns, ew = got
            rows.append(
                replace(t, ns_points=cells.signed_text(ns), ew_points=cells.signed_text(ew))
            )
        out.append(replace(b, rows=tuple(rows)))
    return tuple(out)
