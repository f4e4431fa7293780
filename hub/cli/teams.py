"""``bridgehub teams …``: team events outside the hub, for scorers and for checking draws
(issue 16): ``teams draw swiss|danish|monrad`` makes the next round's draw, ``teams
standings`` the places, from the same two CSV files (``hub/cli/teams_files.py``); with
``--delayed`` the round at the tables may be listed without VPs. Every reading error names
the file and line and stops with status 1.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import click

from hub.cli.teams_files import FileProblems, missing_rounds, read_matches, read_teams
from hub.cli.teams_live_draw import live_draw
from hub.cli.teams_standings import standings, tie_break_rule
from scoring.draw.methods import DEFAULT_RULE, next_draw
from scoring.draw.model import Draw
from scoring.draw.seating import HomeRule
from scoring.draw.swiss import next_round


def draw_json(draw: Draw) -> dict:
    """The draw exactly as issue 16 prints it: round, matches by table, byes, repeats (the
    lot seed is not part of it: the caller gave it, or it is reported on stderr)."""
    return {
        "round": draw.round,
        "matches": [{"table": p.table, "home": p.home, "away": p.away} for p in draw.matches],
        "byes": list(draw.byes),
        "repeats": draw.repeats,
    }


@click.group()
def teams() -> None:
    """Team events from CSV files: the next round's draw, the standings."""


@teams.command("draw")
@click.argument("method", type=click.Choice(["swiss", "danish", "monrad"]), required=False)
@click.option(
    "--teams",
    "teams_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="TEAMS.csv: team,name[,masterpoints][,number]",
)
@click.option(
    "--matches",
    "matches_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="MATCHES.csv: round,home,away,home_vp,away_vp[,home_imps,away_imps] (none: round 1)",
)
@click.option("--delayed", is_flag=True, help="Swiss one round delayed: round N from round N-2.")
@click.option(
    "--tie-break",
    "tie_break",
    multiple=True,
    metavar="RULE|NAME",
    help="the standing's tie-break rule (default: swiss yeh_swiss, danish wbf, monrad "
    "grona_hissen) or tie-break names in order",
)
@click.option("--lot-seed", type=int, default=None, help="Seed of every lot (drawn if needed).")
@click.option(
    "--home",
    type=click.Choice([r.value for r in HomeRule]),
    default=None,
    help="Home team: higher-number (swiss default) or higher-ranked (danish, monrad).",
)
@click.option("--db", "db_url", default=None, help="A live event's store (with --event).")
@click.option("--event", "event_id", type=int, default=None, help="The live event (with --db).")
@click.option("--section", default=None, help="Its drawn section (with --db; if several).")
@click.option("--publish", is_flag=True, help="With --db: publish the draw (no hub running).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def draw_cmd(
    method: str | None,
    teams_file: Path | None,
    matches_file: Path | None,
    delayed: bool,
    tie_break: tuple[str, ...],
    lot_seed: int | None,
    home: str | None,
    db_url: str | None,
    event_id: int | None,
    section: str | None,
    publish: bool,
    as_json: bool,
) -> None:
    """The next round's draw: Swiss (top-down without repeats), Danish (1v2, 3v4 …) or
    Monrad / Gröna Hissen (untangled from the bottom). From CSV files (METHOD --teams
    [--matches]), or a live event's next draw (--db URL --event ID [--publish])."""
    if db_url is not None or event_id is not None:
        if db_url is None or event_id is None or method or teams_file:
            raise click.UsageError(
                "a live event's draw takes --db and --event (no METHOD, no --teams)"
            )
        live_draw(db_url, event_id, section, publish, as_json)
        return
    if method is None or teams_file is None:
        raise click.UsageError("give METHOD and --teams (or --db and --event for a live event)")
    if publish or section:
        raise click.UsageError("--publish and --section are for a live event (--db, --event)")
    if delayed and method != "swiss":
        raise click.UsageError("--delayed is for a Swiss draw")
    rule = tie_break_rule(tie_break) if tie_break else DEFAULT_RULE[method]
    try:
        entrants = read_teams(teams_file)
        matches = read_matches(matches_file, entrants, delayed=delayed) if matches_file else []
    except FileProblems as e:
        raise click.ClickException(str(e)) from None
    if len(entrants) < 2:
        raise click.ClickException(f"{teams_file}: a draw needs at least two teams (1 listed)")
    for warning in missing_rounds(entrants, matches):
        click.echo(f"warning: {warning}", err=True)
    home_rule = HomeRule(home) if home else None
    if lot_seed is None and method == "monrad" and next_round(matches) == 1:
        lot_seed = secrets.randbelow(2**31)  # round 1 is drawn by lot: record the seed
        click.echo(
            f"round 1 drawn by lot with seed {lot_seed}: give --lot-seed {lot_seed} "
            "to reproduce this draw",
            err=True,
        )
    try:
        draw = next_draw(
            method,
            entrants,
            matches,
            delayed=delayed,
            rule=rule,
            home_rule=home_rule,
            lot_seed=lot_seed,
        )
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps(draw_json(draw)))
        return
    names = {t.team: t.name for t in entrants}
    click.echo(f"Round {draw.round} ({method})")
    for p in draw.matches:
        click.echo(f"  table {p.table:>3}: {p.home} {names[p.home]} v {p.away} {names[p.away]}")
    for b in draw.byes:
        click.echo(f"  bye: {b} {names[b]}")
    click.echo(f"  repeats: {draw.repeats}")
    if draw.lot_seed is not None:
        click.echo(f"  lot seed: {draw.lot_seed}")


teams.add_command(standings)
