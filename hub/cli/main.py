"""The ``bridgehub`` command line."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import click

from hub.cli.subcommands import LazyGroup
from hub.event.vp_table_file import load_scale
from scoring.board import Side
from scoring.board_score import BoardScore, ScoreKind
from scoring.butler import ButlerRules, DatumRounding, DropRule
from scoring.cross_imps import CrossImpDivisor, CrossImpRules
from scoring.errors import ScoringInputError
from scoring.matchpoints import AdjustedMethod, BoardTop, MatchpointRules
from scoring.methods import PairsRules, kind_of, score_board, section_rules
from scoring.numbers import display
from scoring.standings import PAIR_TIE_BREAKS, Standing, standings_by_direction, tally_boards
from scoring.vp_scale import BUILT_IN, match_vps, wbf_continuous_table


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bridgehub")
def cli() -> None:
    """bridgehub: the open venue hub for duplicate bridge."""
    # `score` and `vp` live here; every other subcommand is imported when used (subcommands)


def _rules(
    method: str,
    expected: int | None,
    adjusted_method: str,
    half: bool,
    ebu: bool,
    divisor: str,
    cap: int | None,
    drop: str,
    rounding: str,
) -> PairsRules:
    if method == "mp":
        return MatchpointRules(
            expected=expected,
            method=AdjustedMethod(adjusted_method),
            half_points=half,
            ebu_small_groups=ebu,
        )
    if method == "ximp":
        return CrossImpRules(divisor=CrossImpDivisor(divisor), cap=cap)
    return ButlerRules(drop=DropRule.parse(drop), rounding=DatumRounding(rounding))


def _num(x: Fraction) -> float:
    return float(x)


def _result_json(score: BoardScore, i: int) -> dict:
    line = score.traveller.lines[i]
    out = {
        "ns": line.ns,
        "ew": line.ew,
        "score_ns": line.score_ns,
        "contract": str(line.play.contract)
        if line.play and line.play.contract
        else ("PASS" if line.play else None),
        "declarer": line.play.declarer.name if line.play and line.play.declarer else None,
        "result": line.play.result_text if line.play else None,
        "adjusted": str(line.artificial) if line.artificial else None,
        "ns_score": _num(score.score(i, Side.NS)),
        "ew_score": _num(score.score(i, Side.EW)),
    }
    if score.kind is ScoreKind.MATCHPOINTS:
        out["ns_mp"] = _num(score.points(i, Side.NS))
        out["ew_mp"] = _num(score.points(i, Side.EW))
        assert score.top is not None
        out["top"] = int(score.top[i]) / (2 if score.half_points else 1)
    if line.group:
        out["group"] = line.group
    return out


def _pair_json(s: Standing) -> dict:
    t = s.total
    out = {
        "pair": t.pair.number,
        "direction": t.pair.direction,
        "total": _num(t.total),
        "rank": s.rank,
        "boards": t.boards,
    }
    if s.placed.decided_by:
        out["decided_by"] = s.placed.decided_by
    if s.placed.needs_lot:
        out["needs_lot"] = True
    return out


def _print_table(scores: list[BoardScore], tables: dict, kind: ScoreKind) -> None:
    unit = "%" if kind is ScoreKind.MATCHPOINTS else "IMPs"
    dp = 1 if kind is ScoreKind.MATCHPOINTS else 2
    for s in scores:
        click.echo(f"Board {s.board}")
        click.echo(
            f"  {'NS':>4} {'EW':>4}  {'contract':<12} {'score':>6}  "
            f"{'NS ' + unit:>8} {'EW ' + unit:>8}"
        )
        for i, line in enumerate(s.traveller.lines):
            what = (
                str(line.play)
                if line.play
                else (f"adj {line.artificial}" if line.artificial else "")
            )
            score = "" if line.score_ns is None else str(line.score_ns)
            click.echo(
                f"  {line.ns:>4} {line.ew:>4}  {what:<12} {score:>6}  "
                f"{display(s.score(i, Side.NS), dp):>8} "
                f"{display(s.score(i, Side.EW), dp):>8}"
            )
    for direction, rows in tables.items():
        click.echo("")
        click.echo(f"Standings{' ' + direction if direction else ''}")
        click.echo(f"  {'rank':>5} {'pair':>5} {'total':>9} {'boards':>7}")
        for r in rows:
            click.echo(
                f"  {r.rank:>5} {r.total.pair.number:>5} "
                f"{display(r.total.total, 2):>9} {r.total.boards:>7}"
            )


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--method",
    type=click.Choice(["mp", "ximp", "butler"]),
    required=True,
    help="Matchpoints, cross-IMPs or Butler IMPs.",
)
@click.option(
    "--winners",
    type=click.IntRange(1, 2),
    default=2,
    show_default=True,
    help="2: NS and EW are separate fields (Mitchell); 1: one numbering (Howell).",
)
@click.option(
    "--expected",
    type=click.IntRange(1),
    default=None,
    help="Results expected per board (Neuberg N). Default: the most on any board.",
)
@click.option(
    "--top",
    type=click.Choice([t.value for t in BoardTop]),
    default="section",
    show_default=True,
    help="Without --expected: every board to the most results any board has (section), "
    "or each board to its own (board).",
)
@click.option(
    "--adjusted-method",
    type=click.Choice([m.value for m in AdjustedMethod]),
    default="neuberg",
    show_default=True,
)
@click.option(
    "--mp-scale",
    type=click.Choice(["2/1", "1/0.5"]),
    default="2/1",
    show_default=True,
    help="Matchpoint units (percentages are the same).",
)
@click.option(
    "--ebu-small-groups",
    is_flag=True,
    help="EBU WB 4.2.3.3: small fouled-board groups score 70/60/50 %, 65/55 %.",
)
@click.option(
    "--ximp-divisor", type=click.Choice(["n-1", "total"]), default="n-1", show_default=True
)
@click.option(
    "--ximp-cap",
    type=click.IntRange(1, 24),
    default=None,
    help="Cap each cross-IMP comparison, e.g. 17.",
)
@click.option(
    "--butler-drop",
    default="10%",
    show_default=True,
    help="Scores dropped at each end for the datum: N or N% (rounded up).",
)
@click.option(
    "--butler-round",
    type=click.Choice(["nearest", "even"]),
    default="nearest",
    show_default=True,
    help="Datum to 10: halves away from zero, or to even.",
)
@click.option(
    "--tie-break",
    "tie_breaks",
    multiple=True,
    type=click.Choice(list(PAIR_TIE_BREAKS)),
    help="Tie-break chain in order (repeat the option).",
)
@click.option("--lot-seed", type=int, default=None, help="Seed of the drawn lot, if used.")
@click.option(
    "--after-round",
    type=click.IntRange(1),
    default=None,
    help="Standings after this round (needs the round column).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def score(
    file: Path,
    method: str,
    winners: int,
    expected: int | None,
    top: str,
    adjusted_method: str,
    mp_scale: str,
    ebu_small_groups: bool,
    ximp_divisor: str,
    ximp_cap: int | None,
    butler_drop: str,
    butler_round: str,
    tie_breaks: tuple[str, ...],
    lot_seed: int | None,
    after_round: int | None,
    as_json: bool,
) -> None:
    """Score a traveller file (CSV: board,ns,ew,contract,declarer,result[,score_ns,adjusted])."""
    from hub.event.traveller_file import TravellerFileError, read_travellers

    try:
        travellers = read_travellers(file, winners)
        if after_round is not None:
            if any(ln.round is None for t in travellers for ln in t.lines):
                raise click.ClickException("--after-round needs a round on every row")
            travellers = [t.up_to_round(after_round) for t in travellers]
            travellers = [t for t in travellers if len(t)]
            if not travellers:
                raise click.ClickException(f"no results in rounds 1-{after_round}")
        rules = _rules(
            method,
            expected,
            adjusted_method,
            mp_scale == "1/0.5",
            ebu_small_groups,
            ximp_divisor,
            ximp_cap,
            butler_drop,
            butler_round,
        )
        if isinstance(rules, MatchpointRules):  # decisions D22: the common top
            rules = replace(rules, top=BoardTop(top))
        rules = section_rules(rules, (len(t) for t in travellers))
        if isinstance(rules, MatchpointRules) and expected is not None:
            # Neuberg with fewer results expected than played gives wrong percentages
            crowded = next((t for t in travellers if len(t) > expected), None)
            if crowded is not None:
                raise click.ClickException(
                    f"board {crowded.board} has {len(crowded)} results, more than "
                    f"--expected {expected}"
                )
        scores = [score_board(t, rules) for t in travellers]
        tally = tally_boards(scores, kind_of(rules), winners)
        tables = standings_by_direction(tally, tie_breaks, lot_seed)
    except TravellerFileError as e:
        raise click.ClickException(str(e)) from None
    except ScoringInputError as e:
        raise click.ClickException(e.message) from None
    if as_json:
        doc = {
            "method": method,
            "boards": [
                {"board": s.board, "results": [_result_json(s, i) for i in range(len(s.traveller))]}
                for s in scores
            ],
            "pairs": [_pair_json(r) for rows in tables.values() for r in rows],
        }
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
    else:
        _print_table(scores, tables, kind_of(rules))


def _parse_imps(text: str) -> Fraction:
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"{text!r} is not a number of IMPs") from None


@cli.command()
@click.option("--boards", type=click.IntRange(1), required=True, help="Boards in the match.")
@click.option(
    "--imps",
    "imps_text",
    default=None,
    help="IMP margin (may be fractional, e.g. 12.5); omit to print the whole scale.",
)
@click.option(
    "--scale",
    "scale_name",
    type=click.Choice(list(BUILT_IN)),
    default="wbf_continuous_20",
    show_default=True,
)
@click.option(
    "--table",
    "table_file",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="A VP table file (CSV boards,imps_from,imps_to,winner,loser).",
)
def vp(boards: int, imps_text: str | None, scale_name: str, table_file: str | None) -> None:
    """Victory points for an IMP margin, or the whole scale for a number of boards."""
    try:
        scale = load_scale(table_file or scale_name)
        if imps_text is not None:
            margin = abs(_parse_imps(imps_text))
            w, lo = match_vps(scale, boards, margin)
            click.echo(f"{display(w, 2)} {display(lo, 2)}")
            return
        if scale_name == "wbf_continuous_20" and table_file is None:
            last = len(wbf_continuous_table(boards)) - 1
            for m in range(last + 1):
                w, lo = scale.lookup(boards, m)
                label = f"{m}+" if m == last else str(m)
                click.echo(f"{label:>4} {display(w, 2)} {display(lo, 2)}")
            return
        prev = None
        m = 0
        start = 0
        while True:
            cur = scale.lookup(boards, m)
            if prev is not None and cur != prev:
                label = f"{start}-{m - 1}" if m - 1 > start else str(start)
                click.echo(f"{label:>7} {display(prev[0], 2)} {display(prev[1], 2)}")
                start = m
            prev = cur
            if m > 400:
                break
            m += 1
        click.echo(f"{str(start) + '+':>7} {display(prev[0], 2)} {display(prev[1], 2)}")
    except ScoringInputError as e:
        raise click.ClickException(e.message) from None


def main() -> None:
    """Entry point: click handles usage errors; anything unexpected is one clear line."""
    try:
        cli.main(standalone_mode=True)
    except Exception as e:
        if os.environ.get("BRIDGEHUB_DEBUG"):
            raise
        click.echo(
            f"bridgehub: internal error: {type(e).__name__}: {e} "
            "(set BRIDGEHUB_DEBUG=1 for details)",
            err=True,
        )
        sys.exit(70)


if __name__ == "__main__":  # python -m hub.cli.main
    main()
