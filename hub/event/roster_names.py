"""An event file's players named from the club roster ([MENDS] #25, TD trial turn 3 G7): a
player written with a member number alone (``players = [{ number = "1027" }]``) takes the
name the club roster (``[event] roster``, beside the event file) has for it, at ``event
create``, so a TD does not type into the file the names the roster already holds. A number
the roster does not have, or a roster the hub cannot read, is a problem of the event file,
named by its place. Reads the roster file; no other I/O."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hub.event.event_file import EventFile, Player
from hub.event.roster import RosterError, read_roster, roster_file

Problem = tuple[str, str]  # (where in the file, why)


def _unnamed(event: EventFile) -> Iterator[tuple[str, str]]:
    """(place, member number) of every player the file gives by number alone."""
    for s, session in enumerate(event.sessions):
        for c, section in enumerate(session.sections):
            entries: list[tuple[str, int, list[Player]]] = [
                ("pairs", i, p.players) for i, p in enumerate(section.pairs)
            ]
            entries += [("teams", i, t.players) for i, t in enumerate(section.teams)]
            for kind, i, players in entries:
                for j, player in enumerate(players):
                    if not player.name and player.number:
                        where = f"sessions[{s}].sections[{c}].{kind}[{i}].players[{j}]"
                        yield where, player.number


def roster_names(event: EventFile, base_dir: Path | None) -> tuple[dict[str, str], list[Problem]]:
    """The names (member number → name) of the players the file gives by number alone,
    and the problems: no roster named, a number the roster does not have, a roster that
    cannot be read (a roster file that is not there is ``roster_problems``' to say)."""
    wanted = list(_unnamed(event))
    if not wanted:
        return {}, []
    listed = event.event.roster
    if listed is None:
        return {}, [
            (where, f"member {number} has no name: give the name, or the club roster that "
             "has it ([event] roster)")
            for where, number in wanted
        ]  # fmt: skip
    path = roster_file(listed, [base_dir or Path(".")])
    if not path.is_file():
        return {}, []
    try:
        roster = read_roster(path)
    except RosterError as e:
        return {}, [("event.roster", str(e))]
    names: dict[str, str] = {}
    problems: list[Problem] = []
    for where, number in wanted:
        name = roster.name(number)
        if name is None:
            problems.append(
                (where, f"member {number} is not in the club roster {listed}: give the name")
            )
        else:
            names[number] = name
    return names, problems


def named(player: Player, names: Mapping[str, str]) -> dict[str, Any]:
    """The player as stored: a member number alone with the roster's name for it."""
    stored = player.model_dump(exclude_none=True)
    if not player.name and player.number is not None and player.number in names:
        stored["name"] = names[player.number]
    return stored
