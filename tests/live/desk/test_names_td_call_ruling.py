"""A TD call carries the director's note and ruling (issue 13 "The director's desk": "A TD
call can carry a note and the ruling"): `td_call {call, status, note?, ruling?}` stores the
ruling (the audit log keeps each; the latest is shown), the snapshot's `td_calls[]` and the
feed's `td_call` event show it; a ruling longer than the model allows is refused by name."""

from __future__ import annotations

import asyncio

import pytest
from late_pair_event import five_pairs

from hub.api.server import CommandError
from hub.live.service.hub_service import HubService
from hub.store.store import Store


def test_a_td_calls_ruling_is_stored_and_shown(tmp_path):
    async def scenario() -> None:
        file = five_pairs(tmp_path)
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
        call = store.open_td_call(eid, "A", 2, 1, "revoke?")
        hub = HubService(store, eid, [], auto_advance=False, tick_s=3600)
        await hub.start()
        feed = hub.feed.subscribe()
        try:
            args = {"call": call, "status": "in_progress", "note": "revoke on trick 7"}
            await hub.commands.dispatch("td_call", args, "TD Anna")
            ruling = "Law 64A1: one trick to EW"
            args = {"call": call, "status": "resolved", "ruling": ruling}
            await hub.commands.dispatch("td_call", args, "TD Anna")
            shown = (await hub.snapshot())["td_calls"]
            assert shown[0]["note"] == "revoke on trick 7"
            assert shown[0]["ruling"] == ruling
            events = [feed.get_nowait() for _ in range(feed.qsize())]
            last = [e for e in events if e and e["event"] == "td_call"][-1]
            assert (last["status"], last["ruling"]) == ("resolved", ruling)
            with pytest.raises(CommandError, match="ruling: needs text of at most 500"):
                await hub.commands.dispatch(
                    "td_call", {"call": call, "status": "resolved", "ruling": "x" * 501}, "TD"
                )
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())
