"""Byes with an odd number of teams: the lowest-ranked team that has not had one yet
(gaps-and-swedish-practice.md: how Swedish scoring software gives the bye)."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence

from scoring.draw.model import MatchPlayed, had_bye


def bye_team(order: Sequence[str], had_bye: Collection[Hashable]) -> str | None:
    """The team that sits out, or None with an even number of teams.

    ``order`` is the standing, best first. When every team has had a bye, the lowest-ranked
    team gets a second one.
    """
    if len(order) % 2 == 0:
        return None
    for team in reversed(order):
        if team not in had_bye:
            return team
    return order[-1]


def split_bye(
    order: Sequence[str], earlier: Iterable[MatchPlayed]
) -> tuple[tuple[str, ...], list[str]]:
    """The round's bye (none, or the one team ``bye_team`` picks) and the teams that play,
    in standing order."""
    bye = bye_team(order, had_bye(earlier))
    return ((bye,) if bye else ()), [t for t in order if t != bye]
