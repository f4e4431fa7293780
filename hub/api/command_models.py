"""The director's commands as data (decisions D1): one pydantic model per command, its
arguments typed and bounded (finite numbers in sane ranges, bounded text, known keys
only), its docstring what it does. The hub checks every command against its model before
a handler runs, so a handler only ever sees arguments it can use.

``python -m hub.api.command_models`` prints the command table of docs/api.md; a test
checks that docs/api.md contains it verbatim.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

from hub.api.command_words import needs, refusal
from hub.api.server import CommandError

# the round clock's limits, shared with hub.live.round_clock (which refuses the same on replay)
MAX_ADJUST_SECONDS = 4 * 3600
MAX_CLOCK_MINUTES = 240
MAX_ID = 2**31 - 1  # a stored row's number (results, penalties, TD calls)

Section = Annotated[
    str, Field(min_length=1, max_length=8, description="a section of this event, as `A`")
]
Table = Annotated[int, Field(ge=1, le=999)]
Round = Annotated[int, Field(ge=1, le=999)]
Board = Annotated[int, Field(ge=1, le=9999)]
Pair = Annotated[int, Field(ge=1, le=9999)]
RowId = Annotated[int, Field(ge=1, le=MAX_ID)]
Seconds = Annotated[
    float, Field(ge=-MAX_ADJUST_SECONDS, le=MAX_ADJUST_SECONDS, allow_inf_nan=False)
]
Minutes = Annotated[float, Field(ge=-MAX_CLOCK_MINUTES, le=MAX_CLOCK_MINUTES, allow_inf_nan=False)]
BreakMinutes = Annotated[float, Field(gt=0, le=MAX_CLOCK_MINUTES, allow_inf_nan=False)]


class CommandArgs(BaseModel):
    """The arguments of one director's command: strict types, no unknown keys, and a
    section checked against the event (given as the validation context). Sans-I/O."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @field_validator("section", check_fields=False)
    @classmethod
    def _section_in_event(cls, value: str | None, info: ValidationInfo) -> str | None:
        sections = (info.context or {}).get("sections")
        if value is not None and sections is not None and value not in sections:
            raise PydanticCustomError(
                "section_unknown",
                "{given} is not a section of this event ({known})",
                {"given": repr(value), "known": ", ".join(sections)},
            )
        return value


class SectionArgs(CommandArgs):
    section: Section


class TableArgs(CommandArgs):
    section: Section
    table: Table
    round: Round
    board: Board


class StartClock(SectionArgs):
    """Start the current round's clock from now (the room is seated); its time and the
    slow-play measure count from here."""


class NextRound(SectionArgs):
    """End the round now and start the next (boards not played are reported in an alert,
    for the director's scores); refused in the last round. A hub without auto-advance moves
    on only by this command."""


class Pause(SectionArgs):
    """Pause the round clock."""


class Resume(SectionArgs):
    """Start a paused clock again, or end a break early."""


class AdjustClock(SectionArgs):
    """Add (or with a minus, take) time left on the round clock."""

    seconds: Seconds


class Extend(SectionArgs):
    """Lengthen (or with a minus, shorten) the round's allowed time."""

    minutes: Minutes


class StartBreak(SectionArgs):
    """A break; `resume` ends it early."""

    minutes: BreakMinutes


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
    or round."""

    result: RowId
    rekey: Rekey | None = None


class RejectHeld(CommandArgs):
    """Turn a held result down."""

    result: RowId


class EnterResult(CommandArgs):
    """A result from the director (dead terminal, paper slip): `contract, declarer, result`
    (`4S`, `N`, `=`; `PASS`), or an artificial score in `adjusted` (`60/40`, `A+/A-`)."""

    section: Section
    table: Table
    round: Round
    board: Board
    ns_pair: Pair
    ew_pair: Pair
    contract: Annotated[str, Field(max_length=8)] = ""
    declarer: Annotated[str, Field(max_length=5)] = ""
    result: Annotated[str, Field(max_length=5)] = ""
    adjusted: Annotated[str, Field(max_length=16)] | None = None


class EraseResult(TableArgs):
    """Erase the live result (a new revision); the table can enter it again."""


class ContractValid(TableArgs):
    """The director checked a suspicious-score flag and the result stands (audited; a later
    change to that result is checked again)."""


class Traveller(CommandArgs):
    """The board's live results: `results[]` of `{table, round, ns, ew, contract, declarer,
    lead, tricks, score_ns, adjusted, entered_by, revision, ns_score, ew_score}` (scores in
    percent at MP, IMPs at IMP scoring)."""

    section: Section
    board: Board


class Devices(CommandArgs):
    """`stations[]` `{url, connected, reconnects, frames_in, frames_out, retransmits,
    duplicates, garbage, refused}`, `terminals[]` `{station, address, serial, section,
    table, online, battery, signal, seconds_ago}`, `clocks[]` `{url, protocol, connected,
    reconnects}` (clock displays) and `tasks[]` `{name, running, restarts, last_error,
    done}` (the hub's own background tasks: a line, the result writer, the round clock,
    the audit trail…; a task that failed is started again with backoff, its restarts and
    last error shown here)."""


class TdCall(CommandArgs):
    """A TD call's lifecycle."""

    call: RowId
    status: Literal["in_progress", "resolved", "deferred"]
    note: Annotated[str, Field(max_length=500)] | None = None


class AllowTakeover(CommandArgs):
    """The next terminal to log on takes this held table."""

    section: Section
    table: Table


class ReleaseStandings(SectionArgs):
    """Publish the standings now; replies `provisional[]`, the boards still open (marked
    provisional in the `standings` event)."""


class Message(CommandArgs):
    """A director's message to the terminals: every one, or one section's (at most 250
    characters: 1,000 bytes of UTF-8, within the terminal's text field)."""

    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=250)]
    section: Section | None = None


class ConfirmPenalty(CommandArgs):
    """Confirm a proposed slow-play penalty, saying who pays (`shared`: half each); the
    standings change."""

    penalty: RowId
    payer: Literal["NS", "EW", "both", "shared"]


class WaivePenalty(CommandArgs):
    """Waive a proposed slow-play penalty."""

    penalty: RowId


COMMANDS: dict[str, type[CommandArgs]] = {
    "start_clock": StartClock,
    "next_round": NextRound,
    "pause": Pause,
    "resume": Resume,
    "adjust_clock": AdjustClock,
    "extend": Extend,
    "start_break": StartBreak,
    "accept_held": AcceptHeld,
    "reject_held": RejectHeld,
    "enter_result": EnterResult,
    "traveller": Traveller,
    "devices": Devices,
    "erase_result": EraseResult,
    "td_call": TdCall,
    "allow_takeover": AllowTakeover,
    "release_standings": ReleaseStandings,
    "contract_valid": ContractValid,
    "message": Message,
    "confirm_penalty": ConfirmPenalty,
    "waive_penalty": WaivePenalty,
}


def parse(
    name: str, args: Mapping[str, Any], sections: Collection[str] | None = None
) -> CommandArgs:
    """The command's arguments checked against its model (and the event's sections), or a
    ``CommandError`` that says what is wrong with which argument."""
    model = COMMANDS.get(name)
    if model is None:
        raise CommandError(f"unknown command {name[:40]!r}: use {', '.join(sorted(COMMANDS))}")
    try:
        return model.model_validate(dict(args), context={"sections": sections})
    except ValidationError as e:
        raise CommandError(refusal(name, model, e)) from None


# -- the command table of docs/api.md ---------------------------------------------------------
BEGIN = "<!-- generated: commands (python -m hub.api.command_models) -->"
END = "<!-- end generated -->"


def _one_line(text: str | None) -> str:
    return " ".join(line.strip() for line in (text or "").strip().splitlines())


def generated() -> str:
    """The command table: name, arguments with their types and ranges, what it does."""
    out = [BEGIN, "", "| name | args | does |", "|---|---|---|"]
    for name, model in COMMANDS.items():
        args = []
        for field, info in model.model_fields.items():
            optional = "" if info.is_required() else "optional: "
            args.append(f"`{field}` ({optional}{needs(info)})")
        shown = "; ".join(args) or "none"
        out.append(f"| `{name}` | {shown} | {_one_line(model.__doc__)} |")
    return "\n".join([*out, "", END])


if __name__ == "__main__":
    print(generated())
