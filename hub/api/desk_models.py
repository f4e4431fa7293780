"""The director's desk commands as data (decisions D1; issue [EVENING], TD trial F4, F7): a
score for any table, round and board (a result, an artificial score or a Law 12C1(c)
weighted score), a paper traveller or a round's slips in one command, and the decision on
a held result. One pydantic model per command on ``command_args.CommandArgs``;
``hub.api.command_models`` lists them in ``COMMANDS``."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from hub.api.command_args import Board, CommandArgs, Pair, Round, RowId, Section, Table

MAX_ENTRIES = 400  # a whole round's slips of a large section, or a long paper traveller


class WeightedPart(BaseModel):
    """One result of a weighted score with its weight (`1/2`, `0.25`, `30%`). Sans-I/O."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    weight: Annotated[str, Field(min_length=1, max_length=12)]
    contract: Annotated[str, Field(min_length=1, max_length=8)]
    declarer: Annotated[str, Field(max_length=5)] = ""
    result: Annotated[str, Field(max_length=5)] = ""


class ResultLine(BaseModel):
    """One table's score on a board, as the director gives it: a result (`contract`,
    `declarer`, `result`, optional `lead`), an artificial score (`adjusted`) or a weighted
    score (`weighted`); pairs filled from the movement when not given. Sans-I/O."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    section: Section
    table: Table
    round: Round
    board: Board
    ns_pair: Pair | None = None
    ew_pair: Pair | None = None
    contract: Annotated[str, Field(max_length=8)] = ""
    declarer: Annotated[str, Field(max_length=5)] = ""
    result: Annotated[str, Field(max_length=5)] = ""
    lead: Annotated[str, Field(max_length=4)] | None = None
    adjusted: Annotated[str, Field(max_length=16)] | None = None
    weighted: Annotated[list[WeightedPart], Field(min_length=2, max_length=6)] | None = None


class EnterResult(ResultLine, CommandArgs):
    """A score for any table, round and board, played or not (a dead terminal, a paper
    slip, a board not played): `contract, declarer, result` (`4S`, `N`, `=`; `PASS`) with
    an optional `lead`, or an artificial score in `adjusted` (`60/40`, `A+/A-`, `A/A`,
    `A-/A-` …), or a Law 12C1(c) weighted score in `weighted` (`[{weight: "1/2", contract:
    "4S", declarer: "N", result: "="}, …]`, weights summing to 1). `ns_pair`/`ew_pair` are
    taken from the movement when left out. Replaces the board's live result at that table."""


class EnterResults(CommandArgs):
    """A paper traveller or a round's slips in one command: `entries[]`, each as
    `enter_result`'s arguments. Every entry is checked first; the good ones are stored
    together, and the reply has `entries[]` `{index, status: stored|refused, reason,
    result}` in the order sent."""

    entries: Annotated[list[ResultLine], Field(min_length=1, max_length=MAX_ENTRIES)]


class Rekey(BaseModel):
    """Where a held result was really played; only what the director corrects. Sans-I/O."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    board: Board | None = None
    ns_pair: Pair | None = None
    ew_pair: Pair | None = None
    table: Table | None = None
    round: Round | None = None


class AcceptHeld(CommandArgs):
    """Store a held result as accepted, re-keyed (`rekey`) to the real board, pairs, table
    or round; the terminal stays its author and the director is recorded as accepting it.
    Replacing a live result at that table and board needs `replace: true` (refused
    otherwise, naming the result there)."""

    result: RowId
    rekey: Rekey | None = None
    replace: bool = False


DESK_COMMANDS: dict[str, type[CommandArgs]] = {  # command_models.COMMANDS takes them
    "enter_result": EnterResult,
    "enter_results": EnterResults,
    "accept_held": AcceptHeld,
}
