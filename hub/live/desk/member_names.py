"""Players the director gives by member number alone ([MENDS] #25, TD trial turn 3 G7: the
late-pair form refused 1027 and 1028 though the club roster had them): the name comes from
the event's players with that number, else the club roster (``[event] roster``), as for a
number keyed at a table (hub.live.tables.player_numbers). A number nobody has is refused, named,
so the director types the name.

Called on the hub's asyncio loop; the look-up runs in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hub.api.server import CommandError

# a member number → (its name or None, why the club roster cannot be read or None);
# run in a worker thread (it reads the store and the roster file)
MemberName = Callable[[str], tuple[str | None, str | None]]


async def named_players(
    players: list[dict[str, Any]], member_name: MemberName | None
) -> list[dict[str, Any]]:
    """The players with a name for each member number given alone; ``CommandError``
    naming the player and the number nobody knows (or the roster's problem)."""
    out = []
    for seat, player in enumerate(players, start=1):
        number = str(player.get("number") or "")
        if player.get("name") or not number:
            out.append(dict(player))
            continue
        name, problem = (None, None)
        if member_name is not None:
            name, problem = await asyncio.to_thread(member_name, number)
        if not name:
            why = (
                f"the club roster cannot be read ({problem})"
                if problem
                else "neither the event nor the club roster has it"
            )
            raise CommandError(
                f"player {seat}: member number {number} has no name here ({why}): type the "
                "player's name"
            )
        out.append({"name": name, "number": number})
    return out
