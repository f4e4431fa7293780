"""``bridgehub ko match``: a knockout match scored from BOARDS.csv (issue [KNOCKOUT]): IMPs
per segment, the carry-over, the total, and the event's tie rule (``scoring.knockout.
ko_match.decide``): who won and by what, or what must be played now.

``BOARDS.csv``: ``segment,board,open_ns,closed_ns``, the NS scores at the two tables (the
home team sits NS in the open room); segments after ``--segments`` are the extra sets or
sudden-death boards the tie rule added. Every problem of the file is reported at once as
``FILE:LINE: message``, status 1; nothing is guessed. Exact values are written as
``teams standings`` writes them (``exact_text``: ``6.5``, ``0.1``, else ``50/3``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import click

from hub.cli.teams_files import FileProblems
from hub.cli.teams_standings import exact_text
from hub.event.problems import file_report
from scoring.errors import ScoringInputError
from scoring.knockout.ko_match import KoBoard, KoOutcome, SegmentError, Side, TieRule, decide

COLUMNS = ("segment", "board", "open_ns", "closed_ns")
_AMOUNT = re.compile(r"-?\d+(\.\d+)?(/[1-9]\d*)?")


def _whole(row: dict[str, str], key: str, *, score: bool = False) -> int:
    text = row.get(key, "")
    if score:
        if not re.fullmatch(r"-?\d+", text) or int(text) % 10:
            raise ValueError(f"{key} {text!r} must be a score: a whole multiple of 10 (420, -100)")
    elif not re.fullmatch(r"\d+", text) or int(text) < 1:
        raise ValueError(f"{key} {text!r} must be a whole number ≥ 1")
    return int(text)


def read_boards(path: Path) -> tuple[list[KoBoard], dict[int, int]]:
    """The boards in file order, and the line of each segment's first board."""
    name = str(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileProblems(name, [(0, "not UTF-8 text: save it as UTF-8")]) from None
    except OSError as e:
        raise FileProblems(name, [(0, f"cannot be read: {e.strerror}")]) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    problems: list[tuple[int, str]] = []
    boards: list[KoBoard] = []
    seen: dict[tuple[int, int], int] = {}
    first: dict[int, int] = {}
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        missing = [c for c in COLUMNS if c not in header]
        unknown = [h for h in header if h not in COLUMNS]
        if missing or unknown:
            what = f"missing column(s): {', '.join(missing)}" if missing else (
                f"unknown column(s): {', '.join(unknown)}"
            )  # fmt: skip
            raise FileProblems(name, [(1, f"{what}; the header is {','.join(COLUMNS)}")])
        for values in reader:
            line = reader.line_num
            if not any(v.strip() for v in values) or values[0].strip().startswith("#"):
                continue
            if len(values) > len(header):
                problems.append((line, "more values than the header has columns"))
                continue
            row = {h: v.strip() for h, v in zip(header, values, strict=False)}
            try:
                segment, board = _whole(row, "segment"), _whole(row, "board")
                scores = _whole(row, "open_ns", score=True), _whole(row, "closed_ns", score=True)
            except ValueError as e:
                problems.append((line, str(e)))
                continue
            if (segment, board) in seen:
                where = seen[(segment, board)]
                problems.append(
                    (line, f"segment {segment} board {board} is already on line {where}")
                )
                continue
            seen[(segment, board)] = line
            first.setdefault(segment, line)
            boards.append(KoBoard(segment, board, *scores))
    except csv.Error as e:
        raise FileProblems(name, [(reader.line_num, f"not a CSV line: {e}")]) from None
    if problems:
        raise FileProblems(name, problems)
    if not boards:
        raise FileProblems(name, [(0, f"no boards: one line per board, {','.join(COLUMNS)}")])
    return boards, first


def _carry_over(text: str | None) -> tuple[Fraction, Fraction]:
    if text is None:
        return Fraction(0), Fraction(0)
    if not _AMOUNT.fullmatch(text.strip()):
        raise click.BadParameter(
            f"{text!r}: give IMPs as 6.5, 0.1 or 1/3 (negative: the away team's)",
            param_hint="--carry-over",
        )
    value = Fraction(text.strip())
    return (value, Fraction(0)) if value >= 0 else (Fraction(0), -value)


def outcome_json(out: KoOutcome, home_co: Fraction, away_co: Fraction) -> dict:
    """The match as JSON, exact values as strings."""
    return {
        "segments": [
            {"segment": s.segment, "home": exact_text(s.home_imps), "away": exact_text(s.away_imps)}
            for s in out.segments
        ],
        "carry_over": {"home": exact_text(home_co), "away": exact_text(away_co)},
        "home": exact_text(out.home),
        "away": exact_text(out.away),
        "winner": out.winner.value if out.winner else None,
        "decided_by": out.decided_by.value if out.decided_by else None,
        "next": out.next.value if out.next else None,
        "under_way": out.under_way,
        "total_points": {"home": out.home_points, "away": out.away_points},
        "boards_won": {"home": out.home_boards_won, "away": out.away_boards_won},
        "lot_seed": out.lot_seed,
    }


def _text(data: dict) -> str:
    lines = [f"{'segment':>8} {'home':>8} {'away':>8}"]
    lines += [f"{s['segment']:>8} {s['home']:>8} {s['away']:>8}" for s in data["segments"]]
    co = data["carry_over"]
    lines.append(f"{'carry':>8} {co['home']:>8} {co['away']:>8}")
    lines.append(f"{'total':>8} {data['home']:>8} {data['away']:>8}")
    if data["winner"]:
        seed = f" (seed {data['lot_seed']})" if data["lot_seed"] is not None else ""
        lines.append(f"{data['winner']} wins by {data['decided_by']}{seed}")
    elif data["next"]:
        lines.append(f"level: play a {data['next']} now")
    else:
        lines.append("under way" if data["under_way"] else "level: the tie rule is exhausted")
    return "\n".join(lines)


@click.command("match")
@click.option(
    "--boards",
    "boards_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="BOARDS.csv: segment,board,open_ns,closed_ns (home NS in the open room)",
)
@click.option(
    "--segments",
    type=click.IntRange(min=1),
    default=None,
    help="the match's regular segments (default: every segment in the file)",
)
@click.option(
    "--boards-per-segment",
    type=click.IntRange(min=1),
    default=None,
    help="boards in a regular segment: one with fewer is under way",
)
@click.option("--carry-over", metavar="HOME_IMPS", default=None, help="negative: the away team's")
@click.option(
    "--tie",
    multiple=True,
    type=click.Choice([r.value for r in TieRule]),
    help="the event's tie rule in order (repeat the option)",
)
@click.option("--lot-seed", type=int, default=None, help="the recorded seed a lot is drawn with")
@click.option("--higher", type=click.Choice(["home", "away"]), default=None,
              help="the side placed higher in the qualifier (for higher_placed)")  # fmt: skip
@click.option("--sudden-death-boards", type=click.IntRange(1, 2), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def match(
    boards_file: Path,
    segments: int | None,
    boards_per_segment: int | None,
    carry_over: str | None,
    tie: tuple[str, ...],
    lot_seed: int | None,
    higher: str | None,
    sudden_death_boards: int,
    as_json: bool,
) -> None:
    """A knockout match in IMPs over its segments plus the carry-over, with the tie rule."""
    rules = tuple(TieRule(t) for t in tie)
    if TieRule.LOT in rules and lot_seed is None:
        raise click.UsageError("--tie lot needs --lot-seed N, the recorded seed of the lot")
    if TieRule.HIGHER_PLACED in rules and higher is None:
        raise click.UsageError("--tie higher_placed needs --higher home|away")
    home_co, away_co = _carry_over(carry_over)
    try:
        boards, first_line = read_boards(boards_file)
    except FileProblems as e:
        raise click.ClickException(str(e)) from None
    try:
        out = decide(
            boards,
            regular_segments=segments or max(b.segment for b in boards),
            home_carry_over=home_co,
            away_carry_over=away_co,
            tie=rules,
            lot_seed=lot_seed,
            higher=Side(higher) if higher else None,
            boards_per_segment=boards_per_segment,
            sudden_death_boards=sudden_death_boards,
        )
    except SegmentError as e:
        line = first_line.get(e.segment, 0)
        raise click.ClickException(file_report(str(boards_file), [(line, e.message)])) from None
    except ScoringInputError as e:
        raise click.BadParameter(e.message, param_hint="--tie") from None
    data = outcome_json(out, home_co, away_co)
    click.echo(json.dumps(data, indent=2) if as_json else _text(data))
