"""``bridgehub rulings …``: the director's rulings outside an event (issue 29, [RULINGS]).
``rulings penalty`` proposes the penalty of one scale of a scales file (the grammar of
docs/scoring.md, "Penalty scales" and "Counted offences"; ``examples/penalty_scales.toml``
holds the seeds'), for checking a scale before an event uses it. Every problem of the file
is named by ``FILE:LINE`` (the line of its scale) and stops with status 1.
"""

from __future__ import annotations

import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from hub.cli.teams_standings import exact_text
from hub.event.problems import file_report
from scoring.errors import ScoringInputError
from scoring.offences import OffenceScale, is_counted, offence_scale_from_data
from scoring.penalties import Penalty, PenaltyScale, PenaltyUnit, scale_from_data

SCHEMA_VERSION = 1
_MINUTES = re.compile(r"\d+(\.\d+)?(/[1-9]\d*)?")


def _scale_lines(text: str) -> dict[str, int]:
    """The line each top-level key is on: ``[name]``, or ``name = …`` before any table."""
    lines: dict[str, int] = {}
    header = re.compile(r'\s*\[\s*"?([A-Za-z0-9_-]+)"?\s*\]|\s*"?([A-Za-z0-9_-]+)"?\s*=')
    in_table = False
    for number, line in enumerate(text.splitlines(), start=1):
        m = header.match(line)
        if m and m[1]:
            lines.setdefault(m[1], number)
            in_table = True
        elif m and m[2] and not in_table:
            lines.setdefault(m[2], number)
    return lines


def read_scales(path: Path) -> dict[str, PenaltyScale | OffenceScale]:
    """Every scale of a scales file by its table name; raises ``click.ClickException`` with
    every problem as ``FILE:LINE: message``."""
    name = str(path)
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError:
        raise click.ClickException(f"{name}: not UTF-8 text: save it as UTF-8") from None
    except OSError as e:
        raise click.ClickException(f"{name}: cannot be read: {e.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line = int(m[1]) if (m := re.search(r"line (\d+)", str(e))) else 0
        raise click.ClickException(file_report(name, [(line, f"not valid TOML: {e}")])) from None
    lines = _scale_lines(text)
    problems: list[tuple[int, str]] = []
    scales: dict[str, PenaltyScale | OffenceScale] = {}
    for key, value in data.items():
        if key == "schema_version":
            if value != SCHEMA_VERSION:
                line = lines.get(key, 0)
                problems.append((line, f"schema_version: this hub reads {SCHEMA_VERSION}"))
            continue
        if not isinstance(value, dict):
            problems.append((0, f"{key}: a scale table [{key}] is required"))
            continue
        try:
            if is_counted(value):
                scales[key] = offence_scale_from_data(value, key)
            else:
                scales[key] = scale_from_data(value, key)
        except ScoringInputError as e:
            problems.append((lines.get(key, 0), e.message))
    if problems:
        raise click.ClickException(file_report(name, problems))
    return scales


def penalty_json(p: Penalty) -> dict[str, Any]:
    """``{"unit", "amount"}`` for an amount, else ``{"warning" | "forfeit" | "td_decides":
    true}``; amounts exact (``0.8``, ``50/3``)."""
    if p.unit is PenaltyUnit.WARNING:
        return {"warning": True}
    if p.unit is PenaltyUnit.FORFEIT:
        return {"forfeit": True}
    if p.unit is PenaltyUnit.TD_DECIDES:
        return {"td_decides": True}
    return {"unit": p.unit.value, "amount": exact_text(p.amount)}


def _minutes(text: str) -> Fraction:
    if not _MINUTES.fullmatch(text) or Fraction(text) <= 0:
        raise click.BadParameter(
            f"{text!r}: minutes late or over time, more than 0 (7, 7.5 or 15/2)",
            param_hint="--minutes",
        )
    return Fraction(text)


@click.group()
def rulings() -> None:
    """The director's rulings: penalties proposed by the event's scales."""


@rulings.command("penalty")
@click.option(
    "--scales",
    "scales_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="TOML file of scales (minute scales and counted offences).",
)
@click.option("--scale", "scale_name", required=True, help="The scale's table name.")
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="This contestant's offence of this kind: 1 for the first.",
)
@click.option("--minutes", default=None, help="Minutes late or over time (minute scales).")
@click.option(
    "--boards-unfinished",
    "boards_unfinished",
    type=click.IntRange(min=0),
    default=None,
    help="Boards not finished in time (minute scales that charge per board).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def penalty(
    scales_file: Path,
    scale_name: str,
    count: int,
    minutes: str | None,
    boards_unfinished: int | None,
    as_json: bool,
) -> None:
    """The penalty a scale proposes for the COUNT-th offence (and MINUTES late, for a
    minute scale); the director confirms or changes it."""
    late = _minutes(minutes) if minutes is not None else None
    scales = read_scales(scales_file)
    scale = scales.get(scale_name)
    if scale is None:
        held = ", ".join(scales) or "no scales"
        raise click.BadParameter(
            f"{scale_name!r} is not a scale of {scales_file}; it holds: {held}",
            param_hint="--scale",
        )
    if isinstance(scale, OffenceScale):
        for given, option in ((late, "--minutes"), (boards_unfinished, "--boards-unfinished")):
            if given is not None:
                raise click.BadParameter(
                    f"{scale_name} is a counted offence: give --count only",
                    param_hint=option,
                )
        proposed = scale.penalty(count)
    else:
        if late is None:
            raise click.BadParameter(
                f"{scale_name} is a scale by minutes: give --minutes (more than 0)",
                param_hint="--minutes",
            )
        found = scale.penalty(late, offence=count, boards_unfinished=boards_unfinished or 0)
        if found is None:  # not late: _minutes refuses that already
            raise click.BadParameter("more than 0 minutes", param_hint="--minutes")
        proposed = found
    if as_json:
        click.echo(
            json.dumps(
                {
                    "scale": scale_name,
                    "count": count,
                    "minutes": exact_text(late) if late is not None else None,
                    "penalty": penalty_json(proposed),
                }
            )
        )
        return
    detail = f", {exact_text(late)} minutes" if late is not None else ""
    note = f" ({proposed.note})" if proposed.note else ""
    click.echo(f"{scale.name}: offence {count}{detail}: {proposed}{note}")
