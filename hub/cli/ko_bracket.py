"""``bridgehub ko bracket``: seed 003's seeded bracket from TEAMS.csv (issue [KNOCKOUT]).

``TEAMS.csv``: ``team,name`` and ``elo`` (the players' Elo separated by ``;``, empty
where unknown; ``--seeding elo``) or ``rank`` (the team's number; ``--seeding rank``);
other columns are ignored. Every problem of the file is reported as ``FILE:LINE:
message``, status 1. The lot of the unseeded teams is drawn with ``--lot-seed``, or a seed
drawn here and reported on stderr so the bracket can be reproduced.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

import click

from hub.cli.teams_files import _EXTRA, TEAM_COLUMNS, FileProblems, _rows
from scoring.knockout.seeding import (
    bracket_size,
    first_round,
    ranked_numbers,
    seed_numbers,
    team_elo,
)

_WHOLE = re.compile(r"\d+")


def _elo(text: str) -> int:
    parts = [p.strip() for p in text.split(";")] if text else []
    bad = [p for p in parts if p and not _WHOLE.fullmatch(p)]
    if bad:
        raise ValueError(
            f"elo {bad[0]!r} must be a whole number: the players' Elo separated by ';', "
            "empty where unknown"
        )
    return team_elo([int(p) if p else None for p in parts])


def read_ratings(path: Path, seeding: str) -> tuple[dict[str, int], dict[str, str]]:
    """Each team's rating (team Elo, or its rank) and name, in file order; a rank given
    twice, or ranks not 1 … n, are refused."""
    column = seeding
    _, rows = _rows(path, (*TEAM_COLUMNS, column))
    problems: list[tuple[int, str]] = []
    ratings: dict[str, int] = {}
    names: dict[str, str] = {}
    seen: dict[str, int] = {}
    ranks: dict[int, int] = {}
    for line, row in rows:
        team = row.get("team", "")
        try:
            if _EXTRA in row:
                raise ValueError(row[_EXTRA])
            if not team:
                raise ValueError("team is empty")
            if team in seen:
                raise ValueError(f"team {team} is already on line {seen[team]}")
            text = row.get(column, "")
            if column == "elo":
                rating = _elo(text)
            else:
                if not _WHOLE.fullmatch(text) or int(text) < 1:
                    raise ValueError(f"rank {text!r} must be a whole number, 1 or more")
                rating = int(text)
                if rating in ranks:
                    raise ValueError(f"rank {rating} is already on line {ranks[rating]}")
                ranks[rating] = line
        except ValueError as e:
            problems.append((line, str(e)))
            continue
        seen[team] = line
        ratings[team], names[team] = rating, row.get("name", "")
    if not problems and column == "rank":
        missing = [str(r) for r in range(1, len(ratings) + 1) if r not in ranks]
        if missing:
            problems.append(
                (0, f"the ranks must be 1 to {len(ratings)}, each once: {', '.join(missing)} "
                    "missing")
            )  # fmt: skip
    if problems:
        raise FileProblems(str(path), problems)
    return ratings, names


def bracket_json(size: int, ratings: dict[str, int], numbered: tuple[str, ...]) -> dict:
    """The bracket exactly as the issue prints it: ``seeded`` is every team by starting
    number, ``matches`` the first round top to bottom, ``away`` None a bye."""
    matches = first_round(numbered, size)
    return {
        "size": size,
        "ratings": {team: ratings[team] for team in numbered},
        "seeded": list(numbered),
        "matches": [
            {"match": i, "home": home, "away": away} for i, (home, away) in enumerate(matches, 1)
        ],
    }


@click.command("bracket")
@click.option(
    "--teams",
    "teams_file",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="TEAMS.csv: team,name and elo (players' Elo separated by ;) or rank",
)
@click.option(
    "--seeding",
    type=click.Choice(["elo", "rank"]),
    required=True,
    help="elo: seed 003 (the N/4 best by team Elo, the rest by lot); rank: numbers as given",
)
@click.option("--lot-seed", type=int, default=None, help="Seed of the lot (drawn if not given).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bracket(teams_file: Path, seeding: str, lot_seed: int | None, as_json: bool) -> None:
    """The seeded first round (seed 003): the bracket size by entries (8, 16, 32 …), the
    starting numbers, the matches top to bottom with byes where an opponent is missing."""
    if seeding == "rank" and lot_seed is not None:
        raise click.UsageError("--lot-seed is for --seeding elo (ranks give every number)")
    try:
        ratings, names = read_ratings(teams_file, seeding)
    except FileProblems as e:
        raise click.ClickException(str(e)) from None
    n = len(ratings)
    size = bracket_size(max(n, 2))
    if n < size // 2:
        raise click.ClickException(
            f"{teams_file}: {n} team{'s' if n != 1 else ''}: the smallest bracket (8) needs "
            "4 to 8 teams (seed 003 §8: fewer than 8 cancel the event)"
        )
    if seeding == "rank":
        numbered = ranked_numbers(ratings)
    else:
        if lot_seed is None:
            lot_seed = secrets.randbelow(2**31)
            click.echo(
                f"unseeded teams numbered by lot with seed {lot_seed}: give --lot-seed "
                f"{lot_seed} to reproduce this bracket",
                err=True,
            )
        numbered = seed_numbers(ratings, size, lot_seed)
    out = bracket_json(size, ratings, numbered)
    if as_json:
        click.echo(json.dumps(out))
        return
    _print_table(out, names, seeding, lot_seed)


def _print_table(out: dict, names: dict[str, str], seeding: str, lot_seed: int | None) -> None:
    size, numbered = out["size"], out["seeded"]
    label = "Elo" if seeding == "elo" else "rank"
    click.echo(f"Bracket of {size} ({len(numbered)} teams, seeding by {seeding})")
    for number, team in enumerate(numbered, start=1):
        mark = "  seeded" if seeding == "elo" and number <= size // 4 else ""
        rating = out["ratings"][team]
        click.echo(f"  {number:>3}  {team}  {names[team]}  {label} {rating}{mark}")
    click.echo("First round:")
    numbers = {team: i for i, team in enumerate(numbered, start=1)}
    for m in out["matches"]:
        home = f"{numbers[m['home']]} {m['home']}"
        away = f"{numbers[m['away']]} {m['away']}" if m["away"] else "bye"
        click.echo(f"  match {m['match']:>2}: {home} v {away}")
    if lot_seed is not None:
        click.echo(f"  lot seed: {lot_seed}")
