"""Standings rows in the feed's format (``hub/live/views/base.py``): the one place they are
built, for the live standings and the published ones alike.

Exact values travel as ``str(Fraction)`` beside a display string (decisions D4), so a client
can rank and compare without rounding and show what the hub shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from scoring.board_score import ScoreKind
from scoring.numbers import display
from scoring.standings import Standing
from scoring.team_standings import PlayedMatch, TeamStanding


def score_text(value: Fraction, kind: ScoreKind) -> str:
    """A total as shown: two decimals, signed at IMPs ("+3.25", "-1.00", "0.00")."""
    text = display(value, 2)
    return f"+{text}" if kind is ScoreKind.IMPS and value > 0 else text


def pairs_rows(
    standings: dict[str | None, list[Standing]], kind: ScoreKind, names: dict[int, str]
) -> list[dict[str, Any]]:
    """Every pair's row, best first in each direction (one list per direction in a
    two-winner field, NS first)."""
    rows: list[dict[str, Any]] = []
    for direction, table in standings.items():
        for s in table:
            t = s.total
            rows.append(
                {
                    "pair": t.pair.number,
                    "direction": direction,
                    "name": names.get(t.pair.number, ""),
                    "rank": s.rank,
                    "boards": t.boards,
                    "total": str(t.total),
                    "text": score_text(t.total, kind),
                    "points": str(t.points),
                    "top": t.top,
                }
            )
    return rows


def teams_rows(
    ranked: list[TeamStanding], boards_played: dict[int, int], names: dict[int, str]
) -> list[dict[str, Any]]:
    """Every team's row, best first: VPs, matches and boards scored, net IMPs."""
    rows: list[dict[str, Any]] = []
    for t in ranked:
        r = t.record
        team = int(str(r.team))
        vp = Fraction(r.vp)
        rows.append(
            {
                "team": team,
                "pair": team,
                "direction": None,
                "name": names.get(team, ""),
                "rank": t.rank,
                "matches": len(r.opponents),
                "boards": boards_played.get(team, 0),
                "total": str(vp),
                "text": display(vp, 2),
                "imps": str(Fraction(r.imps_won - r.imps_lost)),
            }
        )
    return rows


def boards_played(matches: Iterable[PlayedMatch]) -> dict[int, int]:
    """Boards each team has had scored in both rooms, over its matches."""
    out: dict[int, int] = {}
    for m in matches:
        for team in (m.home, m.away):
            key = int(str(team))
            out[key] = out.get(key, 0) + m.result.boards_scored
    return out


def names_of(contestants: list[dict[str, Any]]) -> dict[int, str]:
    """Names as rows show them, from ``Store.contestants``: the team's name, or the pair's
    players joined with " & " (players without a name are left out)."""
    out: dict[int, str] = {}
    for c in contestants:
        players = " & ".join(p["name"] for p in c.get("players") or [] if p.get("name"))
        out[int(c["number"])] = c.get("name") or players
    return out
