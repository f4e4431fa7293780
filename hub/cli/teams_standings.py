"""``bridgehub teams standings``: team places from a teams file and a matches file (read by
``hub/cli/teams_files.py``, as ``teams draw`` reads them), ties broken by a named rule
(``wbf``, the seeds' chains of ``scoring.team_ties``) or a chain of tie-break names.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import click

from hub.cli.teams_files import FileProblems, read_matches, read_teams
from scoring.numbers import display
from scoring.team_ties import RULES, TeamPlace, TieBreakRule, place_teams, rule_from_names


def exact_text(x: Fraction) -> str:
    """An exact value as text: ``16.46`` when it has a finite decimal form, else ``50/3``."""
    x = Fraction(x)
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        return str(x)
    places = 0
    while (x * 10**places).denominator != 1:
        places += 1
    return display(x, places)  # exact: x has no more than ``places`` decimals


def tie_break_rule(names: tuple[str, ...]) -> TieBreakRule:
    """``--tie-break``: a rule's name, or tie-break names (repeated or with commas)."""
    parts = [n.strip() for name in names for n in name.split(",") if n.strip()]
    try:
        return rule_from_names(parts)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--tie-break") from None


def _tie(p: TeamPlace) -> str | None:
    return p.tie.unresolved if p.tie else p.decided_by


@click.command("standings")
@click.option(
    "--teams",
    "teams_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="TEAMS.csv: team,name[,masterpoints][,number]",
)
@click.option(
    "--matches",
    "matches_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="MATCHES.csv: round,home,away,home_vp,away_vp[,home_imps,away_imps]"
    "[,home_points,away_points][,home_boards_won,away_boards_won]",
)
@click.option(
    "--tie-break",
    "tie_break",
    multiple=True,
    metavar="wbf|NAME",
    help=f"a rule ({', '.join(RULES)}) or tie-break names in order (repeated or with commas)",
)
@click.option(
    "--lot-seed",
    type=int,
    default=None,
    help="the recorded seed a lot is drawn with; without one a lot is left to the TD",
)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def standings(
    teams_file: Path,
    matches_file: Path,
    tie_break: tuple[str, ...],
    lot_seed: int | None,
    as_json: bool,
) -> None:
    """Team standings by VP, ties broken by the rule named (shared places written 3=)."""
    rule = tie_break_rule(tie_break)
    try:
        teams = read_teams(teams_file)
        matches = read_matches(matches_file, teams)
    except FileProblems as e:
        raise click.ClickException(str(e)) from None
    by_number = [t.team for t in sorted(teams, key=lambda t: (t.number, t.team))]
    places = place_teams(matches, rule, teams=by_number, lot_seed=lot_seed)
    if as_json:
        rows = [
            {"team": p.team, "vp": exact_text(p.vp), "rank": p.rank, "tie": _tie(p)} for p in places
        ]
        click.echo(json.dumps({"teams": rows}, indent=2, ensure_ascii=False))
        return
    names = {t.team: t.name for t in teams}
    click.echo(f"{'rank':>5}  {'team':<8} {'name':<24} {'VP':>8}  tie-break")
    for p in places:
        click.echo(
            f"{p.rank:>5}  {p.team!s:<8} {names.get(str(p.team), ''):<24} "
            f"{display(p.vp, 2):>8}  {_tie(p) or ''}"
        )
