"""``bridgehub ko places``: follows the results of a knockout through its bracket file
(docs/brackets.md) to every team's final place or shared place range (issue [KNOCKOUT]).

``RESULTS.csv``: ``match,home_imps,away_imps`` for a two-team match (home: the match's
first slot), or ``match,winner`` (a walk-over, or a level match decided by the tie rule:
then the IMPs and the winner), or ``match,order`` for a three-way (its teams separated by
``;``, winner first). ``TEAMS.csv``: ``team,name,rank[,country]`` (the rank before the
knockout: seeding number or qualification place). ``CHOICES.csv``: ``group,chooser,chosen``
in the order the choices were made. Every problem of a file is reported as
``FILE:LINE: message``, status 1; nothing is guessed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import click

from hub.cli.teams_files import FileProblems, _rows
from hub.event.bracket_file import BracketFileError, read_bracket
from scoring.errors import ScoringInputError
from scoring.knockout.bracket import Bracket, SlotKind
from scoring.knockout.routing import BracketState, Entry, Outcome, follow

RESULT_COLUMNS = ("match", "home_imps", "away_imps", "winner", "order")
_NUMBER = re.compile(r"\d+(\.\d+)?(/[1-9]\d*)?")
LEVEL = "level: give the winner (decided by the tie rule) in a winner column"


@dataclass(frozen=True)
class _Row:
    line: int
    match: str
    imps: tuple[Fraction, Fraction] | None
    winner: str
    order: tuple[str, ...]


def read_entries(path: Path, bracket: Bracket) -> list[Entry]:
    """TEAMS.csv: ``team,name,rank[,country]``."""
    _, rows = _rows(path, ("team", "name", "rank"))
    problems: list[tuple[int, str]] = []
    teams: dict[str, int] = {}
    ranks: dict[int, int] = {}
    out = []
    for line, row in rows:
        team, rank = row.get("team", ""), row.get("rank", "")
        if "\x00extra" in row:
            problems.append((line, "more values than the header has columns"))
        elif not team:
            problems.append((line, "team is empty"))
        elif team in teams:
            problems.append((line, f"team {team} is already on line {teams[team]}"))
        elif not rank.isdigit() or not 1 <= int(rank) <= bracket.entries:
            problems.append((line, f"rank {rank!r}: give a whole number 1-{bracket.entries}"))
        elif int(rank) in ranks:
            problems.append((line, f"rank {rank} is already on line {ranks[int(rank)]}"))
        else:
            teams[team], ranks[int(rank)] = line, line
            out.append(Entry(team, int(rank), row.get("country", "")))
    if len(out) > bracket.entries:
        problems.append((0, f"{len(out)} teams: the bracket takes {bracket.entries}"))
    if problems:
        raise FileProblems(str(path), problems)
    return out


def _named_entries(bracket: Bracket) -> list[Entry]:
    """A bracket that names its teams: ranked in the order it names them."""
    named = [s.team for m in bracket.matches for s in m.slots if s.kind is SlotKind.TEAM]
    named += [
        s.team for g in bracket.choices for s in (*g.choosers, *g.pool) if s.kind is SlotKind.TEAM
    ]
    return [Entry(team, n) for n, team in enumerate(dict.fromkeys(named), start=1)]


def _imps(text: str, key: str) -> Fraction:
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"{key} {text!r} must be a number of at least 0 (45, 12.5 or 25/2)")
    return Fraction(text)


def read_results(path: Path, bracket: Bracket) -> tuple[list[_Row], list[tuple[int, str]]]:
    """RESULTS.csv, each row checked on its own (the teams come later, round by round):
    the good rows and the problems of the others."""
    header, rows = _rows(path, ("match",))
    unknown = [h for h in header if h not in RESULT_COLUMNS]
    if unknown:
        raise FileProblems(
            str(path),
            [
                (
                    1,
                    f"unknown column(s): {', '.join(unknown)}; known "
                    f"are {', '.join(RESULT_COLUMNS)}",
                )
            ],
        )
    names = {m.name: m for m in bracket.matches}
    seen: dict[str, int] = {}
    problems: list[tuple[int, str]] = []
    out = []
    for line, row in rows:
        try:
            if "\x00extra" in row:
                raise ValueError("more values than the header has columns")
            name = row.get("match", "")
            if name not in names:
                raise ValueError(f"match {name!r} is not in the bracket")
            if name in seen:
                raise ValueError(f"match {name} is already on line {seen[name]}")
            home, away = row.get("home_imps", ""), row.get("away_imps", "")
            order = tuple(t.strip() for t in row.get("order", "").split(";") if t.strip())
            if names[name].three_way:
                if len(order) != 3 or home or away or row.get("winner"):
                    raise ValueError(
                        f"{name} is a three-way: give order, its three teams "
                        "separated by ; winner first"
                    )
                imps = None
            else:
                if order:
                    raise ValueError(f"{name} has two teams: give home_imps,away_imps or winner")
                if bool(home) != bool(away):
                    raise ValueError("give both home_imps and away_imps, or neither")
                imps = (_imps(home, "home_imps"), _imps(away, "away_imps")) if home else None
                if imps is None and not row.get("winner"):
                    raise ValueError("give home_imps,away_imps or a winner")
                if imps and imps[0] == imps[1] and not row.get("winner"):
                    raise ValueError(LEVEL)
        except ValueError as e:
            problems.append((line, str(e)))
            continue
        seen[name] = line
        out.append(_Row(line, name, imps, row.get("winner", ""), order))
    return out, problems


def read_choices(path: Path) -> tuple[dict[str, list[tuple[str, str]]], dict[str, list[int]]]:
    """CHOICES.csv: ``group,chooser,chosen`` in the order made; and each choice's line."""
    _, rows = _rows(path, ("group", "chooser", "chosen"))
    made: dict[str, list[tuple[str, str]]] = {}
    lines: dict[str, list[int]] = {}
    for line, row in rows:
        if not all(row.get(k) for k in ("group", "chooser", "chosen")):
            raise FileProblems(str(path), [(line, "give group, chooser and chosen")])
        made.setdefault(row["group"], []).append((row["chooser"], row["chosen"]))
        lines.setdefault(row["group"], []).append(line)
    return made, lines


def _outcome(row: _Row, teams: tuple[str | None, ...]) -> tuple[Outcome, Fraction | None]:
    playing = [t for t in teams if t is not None]
    if row.order:
        if sorted(row.order) != sorted(playing):
            raise ValueError(f"{row.match} is played by {', '.join(playing)}: order lists them")
        return Outcome(row.order), None
    if row.winner and row.winner not in playing:
        raise ValueError(f"winner {row.winner}: {row.match} is played by {', '.join(playing)}")
    if row.imps is None:
        loser = next(t for t in playing if t != row.winner)
        return Outcome((row.winner, loser), walk_over=True), None
    home, away = str(teams[0]), str(teams[1])
    by_imps = home if row.imps[0] > row.imps[1] else away
    if row.imps[0] != row.imps[1] and row.winner and row.winner != by_imps:
        raise ValueError(f"winner {row.winner}, but the IMPs give the match to {by_imps}")
    winner = row.winner or by_imps
    loser = away if winner == home else home
    return Outcome((winner, loser)), abs(row.imps[0] - row.imps[1])


def _follow(
    bracket: Bracket,
    entries: list[Entry],
    read: tuple[list[_Row], list[tuple[int, str]]],
    choices: dict,
    where: tuple[str, str, dict],
) -> BracketState:
    """Round by round: a row's teams are known once the rounds before it are in."""
    results_path, choices_path, choice_lines = where
    rows, problems = read
    outcomes: dict[str, Outcome] = {}
    margins: dict[str, Fraction] = {}
    by_match = {r.match: r for r in rows}

    def state_now() -> BracketState:
        try:
            return follow(bracket, entries, outcomes, choices, margins)
        except ScoringInputError as e:
            found = re.fullmatch(r"choices\[(.+)\]\[(\d+)\]", e.field)
            if found and choices_path:
                line = choice_lines[found[1]][int(found[2])]
                raise click.ClickException(f"{choices_path}:{line}: {e.message}") from None
            raise click.ClickException(f"{results_path}: {e.message}") from None

    for rnd in bracket.rounds:
        state = state_now()
        for m in bracket.round_matches(rnd):
            row = by_match.get(m.name)
            if row is None:
                continue
            teams = state.teams(m.name)
            if state.bye(m.name):
                problems.append((row.line, f"{m.name} is a bye (a team is missing): not played"))
            elif None in teams:
                problems.append(
                    (
                        row.line,
                        f"{m.name}: its teams are not known yet (give the "
                        "results before it, and the choices of its group)",
                    )
                )
            else:
                try:
                    outcomes[m.name], margin = _outcome(row, teams)
                except ValueError as e:
                    problems.append((row.line, str(e)))
                    continue
                if margin is not None:
                    margins[m.name] = margin
    if problems:
        raise FileProblems(results_path, sorted(problems))
    return state_now()


@click.command("places")
@click.option(
    "--bracket",
    "bracket_path",
    required=True,
    type=click.Path(path_type=Path),
    help="The bracket file (TOML, docs/brackets.md).",
)
@click.option(
    "--results",
    "results_path",
    required=True,
    type=click.Path(path_type=Path),
    help="RESULTS.csv: match,home_imps,away_imps | match,winner | match,order.",
)
@click.option(
    "--teams",
    "teams_path",
    type=click.Path(path_type=Path),
    help="TEAMS.csv: team,name,rank[,country]; required when the bracket places "
    "teams by rank (a bracket that names its teams ranks them in that order).",
)
@click.option(
    "--choices",
    "choices_path",
    type=click.Path(path_type=Path),
    help="CHOICES.csv: group,chooser,chosen, in the order the choices were made.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON {places, unplaced}.")
def places(
    bracket_path: Path,
    results_path: Path,
    teams_path: Path | None,
    choices_path: Path | None,
    as_json: bool,
) -> None:
    """Every team's final place or shared place range, from a bracket file and its results
    (teams sharing a range listed by their rank before the knockout)."""
    try:
        bracket = read_bracket(bracket_path)
        by_rank = any(s.kind is SlotKind.RANK for m in bracket.matches for s in m.slots) or any(
            s.kind is SlotKind.RANK for g in bracket.choices for s in (*g.choosers, *g.pool)
        )
        if by_rank and teams_path is None:
            raise click.ClickException(
                f"{bracket_path}: the bracket places teams by rank: "
                "give --teams TEAMS.csv (team,name,rank[,country])"
            )
        entries = read_entries(teams_path, bracket) if teams_path else _named_entries(bracket)
        known = {e.team for e in entries}
        missing = sorted(t.team for t in _named_entries(bracket) if t.team not in known)
        if missing:
            raise click.ClickException(
                f"{teams_path}: the bracket names team(s) "
                f"{', '.join(missing)}, not in the teams file"
            )
        read = read_results(results_path, bracket)
        choices, lines = read_choices(choices_path) if choices_path else ({}, {})
        state = _follow(
            bracket, entries, read, choices, (str(results_path), str(choices_path or ""), lines)
        )
    except (FileProblems, BracketFileError) as e:
        raise click.ClickException(str(e)) from None
    table = state.places()
    placed = {row.team for row in table}
    unplaced = [e.team for e in sorted(entries, key=lambda e: e.rank) if e.team not in placed]
    if as_json:
        out = {"places": [{"team": r.team, "place": str(r)} for r in table], "unplaced": unplaced}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    width = max((len(str(r)) for r in table), default=1)
    for r in table:
        click.echo(f"{str(r).rjust(width)}  {r.team}")
    if unplaced:
        click.echo(f"still playing: {', '.join(unplaced)}")
