"""The director's commands through the API (decisions D1): one dispatcher over the parts
that carry them out (results, the room). Every command's arguments are checked against its
model (``hub.api.command_models``: the one map of command name to model) before its
handler runs, so a handler gets typed, bounded arguments; every command is audited with
the TD's session.

``Commands`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from hub.api.command_models import COMMANDS, parse
from hub.api.server import CommandError
from hub.store.store import Store

Handler = Callable[[Any, str], Awaitable[dict[str, Any]]]


class Commands:
    """Checks, dispatches and audits the director's commands; on the hub's asyncio loop."""

    def __init__(
        self, store: Store, event_id: int, *handlers: object, sections: Collection[str]
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.sections = sections
        self.handlers: dict[str, Handler] = {
            name[4:]: getattr(part, name)
            for part in handlers
            for name in dir(part)
            if name.startswith("cmd_")
        }
        if set(self.handlers) != set(COMMANDS):
            raise ValueError(
                f"commands without a model or a handler: {set(self.handlers) ^ set(COMMANDS)}"
            )

    async def dispatch(self, name: str, args: dict[str, Any], actor: str) -> dict[str, Any]:
        """Run one command; a ``CommandError`` says what the director must change."""
        if name not in self.handlers:
            known = ", ".join(sorted(self.handlers))
            raise CommandError(f"unknown command {name[:40]!r}: use {known}")
        checked = parse(name, args, self.sections)
        result = await self.handlers[name](checked, actor)
        detail = {k: str(v) for k, v in checked.model_dump(exclude_none=True).items()}
        await asyncio.to_thread(self.store.audit, self.event_id, actor, f"command {name}", detail)
        return result or {}
