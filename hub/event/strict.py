"""The base of every event-file table (decisions D2): unknown keys refused, values frozen.
Its own module so the tables of ``hub/event/event_rules.py`` and ``team_rules.py`` share
it without importing each other."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """Every event-file table: unknown keys refused, values frozen (any thread)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
