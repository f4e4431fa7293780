"""A hand-record file loaded during or after the session is checked before it replaces the
published deals (TD trial G11, issue [MENDS] #25): after "Final results" a wrong 16-board
file replaced the deals of a 21-board session. Now the director's `load_hand_records`
refuses, with the reason and nothing changed, a file that leaves out boards the session
plays, and one that the stored opening leads say is another set (more than one lead in
ten, and at least two, not in the opening leader's hand); `force` loads it anyway.

The room: the 3-table Howell of tests/hand_record_room.py (boards 1-10,
RealBridge deals), with rounds 1-2 stored: 12 results, North declaring, each lead the first card (in
the hub's card order) of East's hand by the right deal.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner
from hand_record_room import EVENT, PIN, deals, pbn

from campaign.pg_cluster import free_port
from hub.api.server import CommandError
from hub.cli.main import cli
from hub.live.service.hub_service import HubService
from hub.store.store import ResultEntry, Store
from scoring.board import Seat
from scoring.deal import parse_deal


def _east_lead(deal: str) -> str:
    return sorted(parse_deal(deal)[Seat.E])[0]


def _another_set() -> dict[int, str]:
    """Another session's file: each board number holds another board's deal."""
    room = deals()
    return {b: room[b % 10 + 1] for b in room}


def _played(store: Store, eid: int) -> list[ResultEntry]:
    room = deals()
    movement = store.movement(eid, "A")
    out = []
    for rnd in (1, 2):
        for row in movement.round_rows(rnd, "A"):
            for b in row.boards:
                out.append(
                    ResultEntry(
                        "A", row.table, rnd, b, row.ns_pair, row.ew_pair, contract="1NT",
                        declarer="N", lead=_east_lead(room[b]), tricks=7,
                    )
                )  # fmt: skip
    return out


Loaded = tuple[list[object], dict[int, str], list[ResultEntry]]


def _load(tmp_path: Path, *texts: dict) -> Loaded:
    """Each load_hand_records in turn on a hub over the store with rounds 1-2 played: its
    reply or refusal text; then the stored hand records, and the results stored."""
    (tmp_path / "hands.pbn").write_text(pbn(deals()), "utf-8")

    async def scenario() -> Loaded:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT, base_dir=tmp_path)
        played = _played(store, eid)
        store.record(eid, played)
        hub = HubService(store, eid, [], auto_advance=False)
        await hub.start()
        out: list[object] = []
        try:
            for args in texts:
                try:
                    out.append(await hub.commands.dispatch("load_hand_records", args, "TD"))
                except CommandError as e:
                    out.append(str(e))
            return out, store.hand_records(eid), played
        finally:
            await hub.stop()
            store.close()

    return asyncio.run(scenario())


def test_another_sets_file_is_refused_by_the_stored_leads(tmp_path):
    """G11: the leads stored say the file is another set; it is refused, naming how many
    leads are not in the leader's hand (counted here from the deals themselves), and the
    published deals stay as they were."""
    wrong = _another_set()
    room = deals()
    (refusal,), stored, played = _load(tmp_path, {"pbn": pbn(wrong)})
    assert len(played) == 12
    misfits = sum(r.lead not in parse_deal(wrong[r.board])[Seat.E] for r in played)
    assert misfits >= 2
    assert isinstance(refusal, str)
    assert refusal.startswith(
        f"the file does not fit the results stored: {misfits} of 12 opening leads are not in "
        "the leader's hand by it"
    )
    assert "another set of boards" in refusal and "--force" in refusal
    assert stored == room


def test_a_file_that_leaves_out_boards_of_the_session_is_refused(tmp_path):
    """G11's other half: a 7-board file for the 10-board session is refused, naming the
    boards not in it; the stored deals stay."""
    room = deals()
    short = {b: d for b, d in room.items() if b <= 7}
    (refusal,), stored, _ = _load(tmp_path, {"pbn": pbn(short)})
    assert refusal == (
        "the file holds boards 1-7; session 1 plays boards 1-10: boards 8-10 are not in the "
        "file. Nothing was changed: load the session's whole file, or load it anyway with "
        "force (`bridgehub hand-records FILE.pbn --force`)"
    )
    assert stored == room


def test_force_loads_it_anyway_and_the_right_file_loads_without(tmp_path):
    """`force`: the other set is loaded and the reply says how many stored leads do not
    fit; then the session's own file loads without force (every lead fits)."""
    room = deals()
    forced, right = _load(
        tmp_path, {"pbn": pbn(_another_set()), "force": True}, {"pbn": pbn(room)}
    )[0]
    assert isinstance(forced, dict) and isinstance(right, dict)
    assert forced["leads"]["checked"] == 12 and forced["leads"]["not_in_hand"] >= 2
    assert right["leads"] == {"checked": 12, "not_in_hand": 0}
    assert right["missing"] == []


@pytest.mark.parametrize("force", [False, True], ids=["refused", "forced"])
def test_bridgehub_hand_records_says_why_and_takes_force(tmp_path, force):
    """`bridgehub hand-records FILE` over the API: without --force the refusal is one
    line with the reason (exit 1); with --force the file is loaded."""
    room = deals()
    (tmp_path / "hands.pbn").write_text(pbn(room), "utf-8")
    (tmp_path / "short.pbn").write_text(pbn({b: d for b, d in room.items() if b <= 7}))

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT, base_dir=tmp_path)
        port = free_port()
        hub = HubService(store, eid, [], auto_advance=False, api=("127.0.0.1", port), td_pin=PIN)
        await hub.start()
        try:
            args = [
                "hand-records",
                str(tmp_path / "short.pbn"),
                "--api",
                f"ws://127.0.0.1:{port}/v1",
            ]
            args += ["--force"] if force else []
            out = await asyncio.to_thread(
                CliRunner().invoke, cli, args, env={"BRIDGEHUB_TD_PIN": PIN}
            )
            return out, store.hand_records(eid)
        finally:
            await hub.stop()
            store.close()

    out, stored = asyncio.run(scenario())
    if force:
        assert out.exit_code == 0, out.output
        assert "hand records loaded: 7 boards; not in the file: boards [8, 9, 10]" in out.output
        assert stored == {b: d for b, d in room.items() if b <= 7}
    else:
        assert out.exit_code == 1, out.output
        assert "boards 8-10 are not in the file" in out.output
        assert stored == room
