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
    Field,
    StringConstraints,
    ValidationError,
)

from hub.api.command_args import (
    Board,
    CommandArgs,
    Round,
    RowId,
    Section,
    Table,
)
from hub.api.command_words import needs, refusal
from hub.api.desk_models import DESK_COMMANDS
from hub.api.draw_models import DRAW_COMMANDS
from hub.api.knockout_models import KO_COMMANDS
from hub.api.pair_models import PAIR_COMMANDS
from hub.api.server import CommandError

# the round clock's limits, shared with hub.live.rounds.round_clock
# (which refuses the same on replay)
MAX_ADJUST_SECONDS = 4 * 3600
MAX_CLOCK_MINUTES = 240
Seconds = Annotated[
    float, Field(ge=-MAX_ADJUST_SECONDS, le=MAX_ADJUST_SECONDS, allow_inf_nan=False)
]
Minutes = Annotated[float, Field(ge=-MAX_CLOCK_MINUTES, le=MAX_CLOCK_MINUTES, allow_inf_nan=False)]
BreakMinutes = Annotated[float, Field(gt=0, le=MAX_CLOCK_MINUTES, allow_inf_nan=False)]


class SectionArgs(CommandArgs):
    section: Section


class TableArgs(CommandArgs):
    section: Section
    table: Table
    round: Round
    board: Board


class StartClock(SectionArgs):
    """Start the current round's clock from now (the room is seated); its time and the
    slow-play measure count from here. A round whose clock runs is started again from full
    time only with `restart: true` (refused otherwise, saying the time left)."""

    restart: bool = Field(False, description="`true` to restart a running round's clock")


class NextRound(SectionArgs):
    """End the round now and start the next (boards not played are reported in an alert,
    for the director's scores); in the last round it ends the session (final results),
    refused once it is over. A hub without auto-advance moves on only by this command."""


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
    """A break: between rounds it starts now; asked during a round it starts when the round
    ends (the next round's clock waits for it). It ends by itself; `resume` ends it early."""

    minutes: BreakMinutes


class RejectHeld(CommandArgs):
    """Turn a held result down."""

    result: RowId


class EraseResult(TableArgs):
    """Erase the live result (a new revision); the table can enter it again."""


class ContractValid(TableArgs):
    """The director checked a suspicious-score flag and the result stands (audited; a later
    change to that result is checked again)."""


class Traveller(CommandArgs):
    """The board's live results as a TD checks them: `results[]` of `{table, round, ns, ew,
    contract, declarer, result, lead, tricks, score_ns, points_ns, points_ew, adjusted,
    entered_by, accepted_by, revision, ns_score, ew_score, ns_mp, ew_mp}` (`result` as
    `+1`/`-2`; Law 77 points on the side that scored; scores in percent at MP, IMPs at IMP
    scoring), and `double_dummy` from the board's hand record: `{tricks, par_score,
    par_contracts[], par, makeable[]}` (`tricks` by declarer `N`…`W` and strain `NT`, `S`,
    `H`, `D`, `C`; `par_score` to NS, -400 when EW score 400; `par` and `makeable` as a hand
    record prints them: `NS 620: 4♥ N, 4♥ S`, `NS 4♥`, `E 3NT`), or null without a hand record
    or endplay."""

    section: Section
    board: Board


class Devices(CommandArgs):
    """`stations[]` `{url, connected, reconnects, problem, frames_in, frames_out,
    retransmits, duplicates, garbage, refused}` (`problem`: why the line cannot be opened,
    or null), `terminals[]` `{station, address, serial, section,
    table, online, battery, signal, seconds_ago}`, `clocks[]` `{url, protocol, connected,
    reconnects}` (clock displays), `silent_tables[]` `{section, table, round, serial,
    silent_s, to_play[], waiting_for}` (the tables silent now, see `tables[].silent`) and
    `tasks[]` `{name, running, restarts, last_error,
    done}` (the hub's own background tasks: a line, the result writer, the round clock,
    the audit trail…; a task that failed is started again with backoff, its restarts and
    last error shown here)."""


class TdCall(CommandArgs):
    """A TD call's lifecycle, with the director's `note` and `ruling` (stored, shown)."""

    call: RowId
    status: Literal["in_progress", "resolved", "deferred"]
    note: Annotated[str, Field(max_length=500)] | None = None
    ruling: Annotated[str, Field(max_length=500)] | None = None


class AllowTakeover(CommandArgs):
    """The next terminal to log on takes this held table."""

    section: Section
    table: Table


class ReissueTableCode(CommandArgs):
    """A new code for this table's browser terminals (a lost or dead phone): the old code
    and the device that used it are forgotten; replies `{section, table, code, generation}`
    to print or read out. The device at the table keeps it until another logs on with the
    new code (docs/web-terminal.md)."""

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
    """Confirm a proposed slow-play or late-arrival penalty, saying who pays (`shared`:
    half each); the standings change."""

    penalty: RowId
    payer: Literal["NS", "EW", "both", "shared"]


class WaivePenalty(CommandArgs):
    """Waive a proposed slow-play or late-arrival penalty."""

    penalty: RowId


class AddPenalty(CommandArgs):
    """A penalty the director gives (seed 000's mobile phone: 3 VP or 15 IMP; seed 002's:
    2 VP or 6 IMP): `amount` (exact, `"3"`, `"1/2"`, `"1.5"`) in `unit`, paid by the side(s)
    at `table` in `round` (`payer`: NS, EW, both, `shared` half each), with the `reason`.
    Stored confirmed and audited; the standings change (at teams an IMP penalty comes off
    the team's match of that round, before the VPs)."""

    section: Section
    table: Table
    round: Round
    amount: Annotated[
        str, StringConstraints(strip_whitespace=True, pattern=r"^[0-9]{1,4}([./][0-9]{1,4})?$")
    ] = Field(description='an exact amount above 0, as "3", "1.5" or "1/2"')
    unit: Literal["VP", "IMP", "percent_of_top"]
    payer: Literal["NS", "EW", "both", "shared"]
    reason: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


COMMANDS: dict[str, type[CommandArgs]] = {
    "start_clock": StartClock,
    "next_round": NextRound,
    "pause": Pause,
    "resume": Resume,
    "adjust_clock": AdjustClock,
    "extend": Extend,
    "start_break": StartBreak,
    "reject_held": RejectHeld,
    "traveller": Traveller,
    "devices": Devices,
    "erase_result": EraseResult,
    "td_call": TdCall,
    "allow_takeover": AllowTakeover,
    "reissue_table_code": ReissueTableCode,
    "release_standings": ReleaseStandings,
    "contract_valid": ContractValid,
    "message": Message,
    "confirm_penalty": ConfirmPenalty,
    "waive_penalty": WaivePenalty,
    "add_penalty": AddPenalty,
}
COMMANDS.update(PAIR_COMMANDS)  # late pairs, withdrawals, substitutes, names, movements
COMMANDS.update(DESK_COMMANDS)  # the director's desk: any board's score, slips, held
COMMANDS.update(DRAW_COMMANDS)  # team events drawn while they run: the next round's draw
COMMANDS.update(KO_COMMANDS)  # knockouts: the bracket, choices, walk-overs, the next round


class LoadHandRecords(CommandArgs):
    """Replace a session's hand records with the PBN file's text in `pbn` (the file was
    rotated or of another set); results held for their lead are checked again and those
    that now fit are accepted. `session` counts from 1 (optional with one session). A file
    that leaves out some of the session's boards, or that more than one stored opening lead
    in ten (and at least two) says is another set or rotated, is refused unless `force`."""

    pbn: Annotated[str, Field(min_length=1, max_length=500_000)]
    session: Annotated[int, Field(ge=1, le=99)] | None = None
    force: bool = False


COMMANDS["load_hand_records"] = LoadHandRecords  # hub.live.results.hand_record_commands


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
