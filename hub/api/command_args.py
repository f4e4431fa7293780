"""What every director's command model shares (decisions D1): the argument types with their
bounds and the base model that checks a section against the event. The command models of
the clock and room (``command_models``), of the desk (``desk_models``) and of the pairs
(``pair_models``) are all built on it. Sans-I/O."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

MAX_ID = 2**31 - 1  # a stored row's number (results, penalties, TD calls)

Section = Annotated[
    str, Field(min_length=1, max_length=8, description="a section of this event, as `A`")
]
Table = Annotated[int, Field(ge=1, le=999)]
Round = Annotated[int, Field(ge=1, le=999)]
Board = Annotated[int, Field(ge=1, le=9999)]
Pair = Annotated[int, Field(ge=1, le=9999)]
RowId = Annotated[int, Field(ge=1, le=MAX_ID)]


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
