"""Standings as ``bridgehub event standings`` prints them: a header line, then each pair's
place, its number as the room writes it (NS 3, EW 3 in a Mitchell), its players' names,
its percentage (or IMPs), matchpoints and boards; a team's place, VPs and IMPs, then the
matches round by round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels
from hub.report import cells
from hub.report.team_build import team_label
from hub.report.team_results import TeamMatch, TeamResults
from scoring.numbers import display
from scoring.standings import Standing
from scoring.team_standings import TeamStanding

NAMES = 36  # characters of names shown; longer ones are cut with "…"


def _cut(text: str, width: int = NAMES) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def standings_lines(
    rows: Sequence[Standing], names: Mapping[int, str], movement: Movement
) -> list[str]:
    """The header and one line per pair, best first ("(no results yet)" without rows)."""
    if not rows:
        return ["  (no results yet)"]
    section = movement.sections[0] if movement.sections else None
    labels = PairLabels.of(movement, section)
    imps = rows[0].total.top is None
    total = "IMPs" if imps else "%"
    head = f"  {'place':>5}  {'pair':<6} {'names':<{NAMES}} {total:>8}"
    out = [head + ("" if imps else f" {'MP':>8}") + f" {'boards':>6}"]
    for s in rows:
        pair = s.total.pair.number
        line = (
            f"  {s.rank:>5}  {labels.label(pair):<6} {_cut(names.get(pair, '')):<{NAMES}} "
            f"{display(s.total.total, 2):>8}"
        )
        if not imps:
            line += f" {display(s.total.points, 2):>8}"
        out.append(line + f" {s.total.boards:>6}")
    return out


def team_standings_lines(
    standings: Sequence[TeamStanding], results: TeamResults, names: Mapping[int, str]
) -> list[str]:
    """A teams section as ``event standings`` prints it (issue [MENDS] #25): a header and
    each team's place, number, name, VPs, IMPs won and lost, net IMPs and matches; then
    every round's matches ("Round 3: 8 Hawks 39 – 11 3 Foxes, 18.73 – 1.27") and byes."""
    if not standings:
        return ["  (no results yet)"]
    head = (
        f"  {'place':>5}  {'team':<6} {'name':<{NAMES}} {'VPs':>8} "
        f"{'IMPs+':>7} {'IMPs-':>7} {'net':>7} {'matches':>7}"
    )
    out = [head]
    for s in standings:
        r = s.record
        team = int(str(r.team))
        out.append(
            f"  {s.rank:>5}  {team!s:<6} {_cut(names.get(team, '')):<{NAMES}} "
            f"{display(Fraction(r.vp), 2):>8} {cells.number_text(r.imps_won):>7} "
            f"{cells.number_text(r.imps_lost):>7} "
            f"{cells.signed_text(Fraction(r.imps_won - r.imps_lost)):>7} {len(r.opponents):>7}"
        )
    out.append("  matches:")
    for rnd in results.rounds():
        out += [f"  {match_text(m, names)}" for m in results.matches if m.round == rnd]
        out += [
            f"  Round {rnd}: {team_label(b.team, names)} bye, {display(b.vp, 2)}"
            for b in results.byes
            if b.round == rnd
        ]
    return out


def match_text(m: TeamMatch, names: Mapping[int, str]) -> str:
    """ "Round 3: 8 Hawks 39 – 11 3 Foxes, 18.73 – 1.27" (IMPs with carry-over and IMP
    penalties in; "not played yet" before a board is in from both rooms)."""
    home, away = team_label(m.home, names), team_label(m.away, names)
    r = m.result
    if r is None:
        return f"Round {m.round}: {home} – {away}, not played yet"
    imps = (
        f"{cells.number_text(r.home_imps + r.home_carry_over)} – "
        f"{cells.number_text(r.away_imps + r.away_carry_over)}"
    )
    vps = ""
    if r.home_vp is not None and r.away_vp is not None:
        vps = f", {display(r.home_vp, 2)} – {display(r.away_vp, 2)}"
    return f"Round {m.round}: {home} {imps} {away}{vps}"
