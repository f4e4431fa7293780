"""Pairs that come late or leave early, as movement changes from a round on (pure).

A sit-out is pair 0 in the movement (decisions D3). A late pair takes the sit-out's
place: every pair 0 of the section from that round on becomes the new pair, so the pair
follows the path the sit-out would have taken. A pair that withdraws becomes pair 0 from
that round on: its opponents sit out. Earlier rounds are never touched (decisions D19)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from hub.event.movement.model import Movement, MovementError, MovementRow
from hub.event.pair_labels import PairLabels


def sit_out_rows(movement: Movement, section: str, from_round: int) -> list[MovementRow]:
    """The section's rows from ``from_round`` on that have a sit-out (one pair 0)."""
    return [
        r
        for r in movement.rows
        if r.section == section and r.round >= from_round and (r.ns_pair == 0) != (r.ew_pair == 0)
    ]


def sit_out_number(movement: Movement, section: str) -> int:
    """The pair number the sit-out stands for: the first number missing from the section's
    pairs (a 13-pair Mitchell on 7 tables lacks one of 1..14), else the next number."""
    pairs = set(movement.pairs(section))
    top = max(pairs, default=0)
    return next((n for n in range(1, top + 1) if n not in pairs), top + 1)


def with_late_pair(movement: Movement, section: str, from_round: int, pair: int) -> Movement:
    """``pair`` plays every sit-out of the section from ``from_round`` on; refused (with
    what to do instead) where there is no sit-out, or a sit-out table has no boards."""
    if from_round > movement.rounds:
        raise MovementError(
            f"section {section} has {movement.rounds} rounds: a late pair cannot start in "
            f"round {from_round}"
        )
    if pair in movement.pairs(section):
        raise MovementError(f"pair {pair} already plays in section {section}")
    rows = sit_out_rows(movement, section, from_round)
    missing = sorted(
        {r.round for r in movement.rows if r.section == section and r.round >= from_round}
        - {r.round for r in rows}
    )
    if not rows or missing:
        when = f"round {missing[0]}" if rows else f"round {from_round} on"
        raise MovementError(
            f"section {section} has no sit-out in {when}, so a late pair has no place to "
            "play: change the movement (change_movement) to one for one pair more"
        )
    bare = next((r for r in rows if not r.boards), None)
    if bare is not None:
        raise MovementError(
            f"the sit-out at table {bare.table} in round {bare.round} has no boards in the "
            "movement: change the movement (change_movement) to one for one pair more"
        )
    filled = {
        (r.table, r.round): replace(r, ns_pair=r.ns_pair or pair, ew_pair=r.ew_pair or pair)
        for r in rows
    }
    out = tuple(
        filled.get((r.table, r.round), r) if r.section == section else r for r in movement.rows
    )
    changed = replace(movement, rows=out)
    labels = PairLabels.of(movement, section)
    if labels.mitchell and not PairLabels.of(changed, section).mitchell:
        # NS 1-n and EW 1-n would give way to one numbering, on the terminals mid-session
        place = labels.label(sit_out_number(movement, section))
        raise MovementError(
            f"pair {pair} cannot take the sit-out's place in this Mitchell: the late pair "
            f"is {place}, the number the sit-out stands for"
        )
    return noted(changed, f"from round {from_round} {labels.label(pair)} takes the sit-out's place")


def without_pair(movement: Movement, section: str, pair: int, from_round: int) -> Movement:
    """``pair`` leaves: pair 0 in its place from ``from_round`` on (its opponents sit out)."""
    if pair not in movement.pairs(section):
        raise MovementError(f"pair {pair} does not play in section {section}")
    if from_round > movement.rounds:
        raise MovementError(
            f"section {section} has {movement.rounds} rounds: there is no round {from_round}"
        )
    out = tuple(
        replace(
            r,
            ns_pair=0 if r.ns_pair == pair else r.ns_pair,
            ew_pair=0 if r.ew_pair == pair else r.ew_pair,
        )
        if r.section == section and r.round >= from_round
        else r
        for r in movement.rows
    )
    label = PairLabels.of(movement, section).label(pair)
    return noted(replace(movement, rows=out), f"{label} withdrawn from round {from_round}")


def noted(movement: Movement, change: str) -> Movement:
    """The movement with its description saying what changed during the session, so the
    report's header and the console do not describe the movement as it was at the start."""
    text = movement.layout.description
    return replace(movement, layout=replace(movement.layout, description=f"{text}; {change}"))


def changed_table_rounds(
    old: Movement, new: Movement, section: str, from_round: int
) -> set[tuple[int, int]]:
    """(table, round) of the section, from ``from_round`` on, that the change alters."""
    before = {(r.table, r.round): r for r in old.rows if r.section == section}
    after = {(r.table, r.round): r for r in new.rows if r.section == section}
    return {
        key
        for key in before.keys() | after.keys()
        if key[1] >= from_round and before.get(key) != after.get(key)
    }


def results_in_the_way(
    touched: set[tuple[int, int]], played: Iterable[tuple[int, int]]
) -> str | None:
    """Why a change cannot be made when a changed (table, round) already has results (the
    TD's words: where, and the round to start from instead); None when it can."""
    clash = sorted({(rnd, table) for table, rnd in played if (table, rnd) in touched})
    if not clash:
        return None
    where = ", ".join(f"table {t} round {r}" for r, t in clash[:5])
    return (
        f"{where} already {'has' if len(clash) == 1 else 'have'} results: start the change "
        f"at round {max(r for r, _ in clash) + 1}, or erase those results first"
    )
