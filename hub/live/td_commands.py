"""The director's commands through the API (decisions D1): one dispatcher over the parts
that carry them out (results, the room). Every command is audited with the TD's session.

``Commands`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from hub.api.server import CommandError
from hub.store.store import Store

Handler = Callable[[dict[str, Any], str], Awaitable[dict[str, Any]]]


class Commands:
    """Dispatches and audits the director's commands; on the hub's asyncio loop."""

    def __init__(self, store: Store, event_id: int, *handlers: object) -> None:
        self.store = store
        self.event_id = event_id
        self.handlers: dict[str, Handler] = {
            name[4:]: getattr(part, name)
            for part in handlers
            for name in dir(part)
            if name.startswith("cmd_")
        }

    async def dispatch(self, name: str, args: dict[str, Any], actor: str) -> dict[str, Any]:
        handler = self.handlers.get(name)
        if handler is None:
            known = ", ".join(sorted(self.handlers))
            raise CommandError(f"unknown command {name!r}: use {known}")
        result = await handler(args, actor)
        detail = {k: str(v) for k, v in args.items()}
        await asyncio.to_thread(self.store.audit, self.event_id, actor, f"command {name}", detail)
        return result or {}
