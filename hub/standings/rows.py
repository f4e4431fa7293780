"""Standings rows in the feed's format (``hub/live/views/base.py``): the one place they are
built, for the live standings and the published ones alike.

Exact values travel as ``str(Fraction)`` beside a display string (decisions D4), so a client
can rank and compare without rounding and show what the hub shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from hub.event.pair_labels import PairLabels
from scoring.board_score import ScoreKind
from scoring.numbers import display
from scoring.standings import Standing
from scoring.team_standings import PlayedMatch, TeamStanding


def score_text(value: Fraction, kind: ScoreKind) -> str:
    """A total as shown: two decimals, signed at IMPs ("+3.25", "-1.00", "0.00")."""
    text = display(value, 2)
    return f"+{text}" if kind is ScoreKind.IMPS and value > 0 else text


def pairs_rows(
    standings: dict[str | None, list[Standing]],
    kind: ScoreKind,
    names: dict[int, str],
    labels: PairLabels | None = None,
) -> list[dict[str, Any]]:
    """Every pair's row, best first in each direction (one list per direction in a
    two-winner field, NS first); ``label`` as the room writes the pair ("EW 3", "7")."""
    rows: list[dict[str, Any]] = []
    order = sorted(standings.items(), key=lambda item: item[0] == "EW")  # the NS field first
    for direction, table in order:
        for s in table:
            t = s.total
            rows.append(
                {
                    "pair": t.pair.number,
                    "label": _label(labels, t.pair.number, direction),
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


def _label(labels: PairLabels | None, pair: int, direction: str | None) -> str | None:
    """The room's label; without the section's numbering a two-winner field's label is
    unknown (None: EW 3 is pair 10 inside the hub), one numbering's is the number."""
    if labels is not None:
        return labels.label(pair)
    return None if direction else str(pair)


def label_rows(rows: list[dict[str, Any]], labels: PairLabels) -> list[dict[str, Any]]:
    """Rows (pairs or teams) with ``label`` set from the section's numbering, NS field
    first (a row's order within its field kept)."""
    out = [{**r, "label": labels.label(int(r["pair"]))} for r in rows]
    return sorted(out, key=lambda r: r.get("direction") == "EW")


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
                "label": str(team),
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
