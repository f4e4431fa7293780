"""The director's commands on the pairs during a session (decisions D1): a late pair, a
withdrawal, a substitute, names and numbers, another movement from a round on. One pydantic
model per command, like ``hub.api.command_models`` (which lists them in ``COMMANDS``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from hub.api.command_args import CommandArgs, Pair, Round, Section

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Number = Annotated[str, StringConstraints(strip_whitespace=True, max_length=32)]


class PlayerArg(BaseModel):
    """One player: a name and, if the club has one, a member number; a member number
    alone takes the name the event or the club roster has for it ([MENDS] #25). Sans-I/O."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: Name | None = None
    number: Number | None = None

    @model_validator(mode="after")
    def _someone(self) -> PlayerArg:
        if not self.name and not self.number:
            raise ValueError("a player needs a name or a member number")
        return self


class MovementSpec(BaseModel):
    """A generated movement, as the event file writes one (`kind`, `tables` or `pairs`,
    `boards_per_round`, optionally `rounds`, `variant`). Sans-I/O."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    kind: Literal["mitchell", "howell", "barometer"]
    tables: Annotated[int, Field(ge=2, le=999)] | None = None
    pairs: Annotated[int, Field(ge=3, le=1999)] | None = None
    rounds: Annotated[int, Field(ge=1, le=999)] | None = None
    boards_per_round: Annotated[int, Field(ge=1, le=99)]
    variant: Literal["auto", "plain", "skip", "relay"] = "auto"


class AddPair(CommandArgs):
    """A late pair, playing from `from_round` on in the place of the section's sit-out
    (pair 0 in the movement); refused where the movement has no sit-out from that round
    (change the movement first). `pair`: its number (default, and in a Mitchell the only
    one: the number the sit-out stands for). A player given by member number alone is
    named from the event or the club roster (refused, named, when neither has it). Replies
    `{pair, label, tables: [{round, table}], players}`; the tables are told."""

    section: Section
    from_round: Round
    players: Annotated[
        list[PlayerArg],
        Field(max_length=2, description="0 to 2 players `{name?, number?}`"),
    ]
    pair: Pair | None = None


class WithdrawPair(CommandArgs):
    """A pair leaving: from `from_round` on their opponents sit out (pair 0 in the
    movement); the rounds they played and their results stay."""

    section: Section
    pair: Pair
    from_round: Round


class Substitute(CommandArgs):
    """A substitute for one player of a pair (`seat` 1 or 2, as the pair is listed) from
    now on: names everywhere follow, the audit keeps who played before."""

    section: Section
    pair: Pair
    seat: Literal[1, 2]
    name: Name
    number: Number | None = None


class EditPair(CommandArgs):
    """Correct a pair's players' names and member numbers (audited)."""

    section: Section
    pair: Pair
    players: Annotated[
        list[PlayerArg],
        Field(min_length=1, max_length=2, description="1 or 2 players `{name?, number?}`"),
    ]


class ChangeMovement(CommandArgs):
    """Another movement from `from_round` on (a generated `movement`, or a movement file's
    text in `csv`); earlier rounds stay as played (decisions D19). Refused when a changed
    table-round already has a result. The round state and the tables follow. Sans-I/O."""

    section: Section
    from_round: Round
    movement: MovementSpec | None = None
    csv: (
        Annotated[
            str, Field(min_length=1, max_length=200_000, description="a movement file's text")
        ]
        | None
    ) = None

    @model_validator(mode="after")
    def _one_movement(self) -> ChangeMovement:
        if (self.movement is None) == (self.csv is None):
            raise ValueError("give either movement {kind, tables/pairs, boards_per_round} or csv")
        return self


PAIR_COMMANDS: dict[str, type[CommandArgs]] = {
    "add_pair": AddPair,
    "withdraw_pair": WithdrawPair,
    "substitute": Substitute,
    "edit_pair": EditPair,
    "change_movement": ChangeMovement,
}
