"""Review R2 of the director's `load_hand_records` (issue 13 "a hand-record file that does
not match the boards … reported to the TD in plain words"; common rules: bad input never
crashes the hub). Before: a board number no store column can keep ended the command in an
internal error, and a deal short of cards was stored, so every lead on that board was
"not in the leader's hand" and every result of the board held; `bridgehub hand-records`
with a file past the API's message limit ended in an internal error.

The deals are RealBridge boards 11-20 (tests/data, a real PBN file) renumbered 1-10, the
event the 3-table Howell of tests/hand_record_room.py."""

from __future__ import annotations

import asyncio

import pytest
from hand_record_room import EVENT, PIN, deals, pbn

from campaign.pg_cluster import free_port
from hub.api.server import CommandError
from hub.live.service.hub_service import HubService
from hub.store.store import Store

HUGE = 10**20  # more than a 64-bit integer column holds


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (pbn({**deals(), HUGE: deals()[1]}), f"the file has a board {HUGE}: boards run 1-65535"),
        (
            pbn({**deals(), 3: "N:AKQ... ... ... ..."}),
            "board 3's deal is not a whole deal (cards N, E, S, W: 3, 0, 0, 0; each hand "
            "needs 13 of the 52 cards)",
        ),
    ],
    ids=["board-number-too-big", "partial-deal"],
)
def test_unusable_hand_records_are_refused_by_name_and_nothing_changes(tmp_path, text, expected):
    room = deals()
    (tmp_path / "hands.pbn").write_text(pbn(room), "utf-8")

    async def scenario() -> str:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT, base_dir=tmp_path)
        hub = HubService(store, eid, [], auto_advance=False)
        await hub.start()
        try:
            with pytest.raises(CommandError) as refused:
                await hub.commands.dispatch("load_hand_records", {"pbn": text}, "TD")
            assert store.hand_records(eid) == room
            return str(refused.value)
        finally:
            await hub.stop()
            store.close()

    assert asyncio.run(scenario()) == expected


def test_a_file_past_the_apis_message_limit_is_refused_in_one_line(tmp_path):
    """`bridgehub hand-records FILE` with a file bigger than the API takes in one message
    (1 MiB: the hub closes the link with 1009 "message too big"): one line saying the hub
    did not take the file and why (before: websockets' ConnectionClosedError, an internal
    error)."""
    from click.testing import CliRunner

    from hub.cli.main import cli

    room = deals()
    (tmp_path / "hands.pbn").write_text(pbn(room), "utf-8")
    big = tmp_path / "big.pbn"
    big.write_text(pbn(room) + "% padding\n" * 120_000, "utf-8")  # 1.2 MB

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT, base_dir=tmp_path)
        port = free_port()
        hub = HubService(store, eid, [], auto_advance=False, api=("127.0.0.1", port), td_pin=PIN)
        await hub.start()
        try:
            args = ["hand-records", str(big), "--api", f"ws://127.0.0.1:{port}/v1"]
            env = {"BRIDGEHUB_TD_PIN": PIN}
            out = await asyncio.to_thread(CliRunner().invoke, cli, args, env=env)
            assert store.hand_records(eid) == room
            return out
        finally:
            await hub.stop()
            store.close()

    out = asyncio.run(scenario())
    assert out.exit_code == 1, out.output
    assert "did not take the file: the hub closed the link" in out.output
    assert "message too big" in out.output and "internal error" not in out.output


def test_event_create_refuses_a_partial_deal_and_stores_nothing(tmp_path):
    """The same check at `event create` (before, the file was stored and every lead on board
    3 would have been held): the refusal names the file and the board."""
    (tmp_path / "hands.pbn").write_text(pbn({**deals(), 3: "N:AKQ... ... ... ..."}), "utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        with pytest.raises(Exception, match="board 3's deal is not a whole deal") as refused:
            store.create_event(EVENT, base_dir=tmp_path)
        assert "hands.pbn" in str(refused.value)
        assert store.event_ids() == []
    finally:
        store.close()
