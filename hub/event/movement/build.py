"""The movement an event file names: a generated one, a movement file beside it, or a
Bridgemate RoundData CSV beside it (``hub/event/movement/round_data.py``)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from hub.event.event_file import GeneratedMovement, KnockoutMovement, RoundDataMovement, Team
from hub.event.movement.barometer import barometer
from hub.event.movement.csv_format import not_utf8, parse_movement
from hub.event.movement.drawn import drawn_teams
from hub.event.movement.howell import howell
from hub.event.movement.mitchell import mitchell, tables_for
from hub.event.movement.model import Movement, MovementError
from hub.event.movement.round_data import round_data_movement
from hub.event.movement.teams import round_robin


def build_movement(
    spec: str | GeneratedMovement | RoundDataMovement | KnockoutMovement,
    section: str,
    base_dir: Path | None = None,
    *,
    teams: Sequence[Team] = (),
    lot_seed: int | None = None,
) -> Movement:
    """Generate the movement, or read the file (relative to the event file's folder). A
    knockout's first round is drawn from its ``teams`` with the event's ``lot_seed``, or
    one drawn here and kept in its movement (decisions D19)."""
    if isinstance(spec, KnockoutMovement):
        from hub.event.knockout_rounds import start_movement  # scoring.knockout: on demand

        seed = secrets.randbelow(2**31) if lot_seed is None else lot_seed
        return start_movement(spec, section, teams, seed, base_dir)
    if isinstance(spec, RoundDataMovement):
        return round_data_movement(spec, section, base_dir)
    if isinstance(spec, str):
        path = (base_dir or Path(".")) / spec
        try:
            movement = parse_movement(path.read_text(encoding="utf-8-sig"))
        except OSError as e:
            raise MovementError(f"movement file {spec}: cannot read: {e}", None, "file") from None
        except UnicodeDecodeError as e:
            raise MovementError(f"movement file {spec}: {not_utf8(e)}", None, "file") from None
        except MovementError as e:  # which file: the event file may name several
            raise MovementError(f"movement file {spec}: {e.message}", e.row, e.rule) from None
        rows = tuple(replace(r, section=section) for r in movement.rows)
        return replace(movement, rows=rows)
    g = spec
    bpr = g.boards_per_round
    if g.kind == "mitchell":
        return mitchell(
            g.tables,
            bpr,
            g.rounds,
            pairs=g.pairs,
            variant=g.variant,
            arrow_switch=g.arrow_switch,
            section=section,
        )
    if g.kind == "howell":
        tables = tables_for(g.tables, g.pairs, "Howell")
        return howell(tables, bpr, g.rounds, pairs=g.pairs, section=section)
    if g.kind == "barometer":
        pairs = g.pairs or (2 * g.tables if g.tables else None)
        if pairs is None:
            raise MovementError("a generated barometer needs pairs or tables", None, "size")
        return barometer(pairs, bpr, g.rounds, section=section)
    if g.teams is None:
        raise MovementError("a generated round robin needs teams", None, "size")
    if g.draw is not None:  # Swiss, Danish, Monrad: drawn while the event runs (D19)
        higher = None if g.home is None else g.home == "higher-number"
        return drawn_teams(
            g.teams,
            g.rounds or 0,
            bpr,
            g.draw,
            g.first_rounds,
            section=section,
            higher_number_home=higher,
            three_ways=g.odd == "three_way",
        )
    return round_robin(g.teams, bpr, double=g.double, section=section, segments=g.segments)
