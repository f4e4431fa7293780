"""Hand records that do not fit the room (issue [EVENING] "a lead card not in the leader's
hand"; TD trial F3): a lead not in the opening leader's hand is held for the director (the
table goes on), a rotated file or another set is told to the director once in plain words,
and the director's `load_hand_records` replaces the file and accepts the held results whose
leads now fit. The simulator's players lead from the real hands (`--hand-records`).

The deals are RealBridge boards 11-20 (tests/data, a real PBN file) renumbered 1-10, the
room's event a 3-table Howell (tests/hand_record_room.py)."""

from __future__ import annotations

import asyncio
import random

from hand_record_room import EVENT, PIN, deals, pbn
from hub_stub import wait_until

from campaign.pg_cluster import free_port
from hub.cli.hand_records import send_hand_records
from hub.live.results.hand_record_check import HandRecordCheck, rotations_fitting
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from scoring.board import Seat
from scoring.deal import opening_leader, parse_deal
from simulator.bots import PlayerBot
from simulator.deals import played
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

BOARD_11 = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"


def rotated(deal: str) -> str:
    """The file written one seat clockwise: its North hand is the room's East hand."""
    hands = deal.split(":", 1)[1].split()  # N E S W as in the room
    return "N:" + " ".join(hands[1:] + hands[:1])


def test_which_rotation_holds_the_lead():
    """Board 11 (the file's own text): North declares, East leads. DK is East's (KQ874):
    the file as written. SK is North's (KT8): one seat clockwise (the file's North hand is
    East's). SA is South's (AJ92): one seat anticlockwise (the file's South is East's)."""
    assert rotations_fitting(BOARD_11, Seat.E, "DK") == {0}
    assert rotations_fitting(BOARD_11, Seat.E, "SK") == {1}
    assert rotations_fitting(BOARD_11, Seat.E, "SA") == {3}


def _leads(room: dict[int, str], file: dict[int, str], boards: range) -> list[str | None]:
    """North declares every board and East leads their first card in the room."""
    check = HandRecordCheck()
    out = []
    for b in boards:
        lead = sorted(parse_deal(room[b])[Seat.E])[0]
        out.append(check.observe("A", (b, 1, b), opening_leader(Seat.N), lead, file[b]))
    return out


def test_a_rotated_file_is_told_once_after_four_boards():
    """Every lead fits the file rotated one seat clockwise: after the fourth result (on
    four boards) the director is told so, once, with how to load the right file."""
    room = deals()
    notices = _leads(room, {b: rotated(d) for b, d in room.items()}, range(1, 9))
    assert notices[:3] == [None, None, None] and notices[4:] == [None] * 4
    assert notices[3] is not None
    assert notices[3].startswith(
        "the hand records do not match the boards played: 4 of 4 opening leads fit the "
        "deals rotated one seat clockwise (the file's North hand is East's in the room) — is "
        "the PBN file rotated? Load the right file with"
    )
    assert "load_hand_records" in notices[3]


def test_another_set_is_told_and_the_right_file_is_not():
    """Boards 1-5 played with boards 6-10's deals in the file: no rotation explains the
    leads (another set). The right file: nothing to tell."""
    room = deals()
    wrong = {b: room[b + 5] for b in range(1, 6)}
    notices = [n for n in _leads(room, wrong, range(1, 6)) if n]
    assert len(notices) == 1 and "is it another set of boards" in notices[0]
    assert _leads(room, room, range(1, 11)) == [None] * 10


def test_the_simulators_players_lead_from_the_leaders_real_hand():
    """`bridgehub simulate --hand-records`: on every board the lead is a card of the
    opening leader's hand (the defender on declarer's left), and the contract is legal."""
    rng = random.Random(7)
    for deal in deals().values():
        for _ in range(20):
            contract, declarer, lead, tricks = played(deal, rng)
            leader = opening_leader(Seat(declarer))
            assert lead in parse_deal(deal)[leader], (deal, declarer, lead)
            assert 0 <= tricks <= 13 and contract[0] in "1234567"


def test_a_rotated_file_in_a_live_room_is_detected_and_replaced(tmp_path):
    """End to end on real ptys: the stored hand records are rotated, the simulator's
    players lead from the real hands. Every result is held with its reason (the terminal is
    told "held", the table plays on, nothing refused), the director is told once that the
    file is rotated; the TD loads the right file over the API (`bridgehub hand-records`)
    and the held results are accepted."""
    room = deals()
    (tmp_path / "hands.pbn").write_text(pbn({b: rotated(d) for b, d in room.items()}), "utf-8")

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT, base_dir=tmp_path)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2, 3):
            bot = PlayerBot(seed=t, deals=room)
            station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=50_000))
        port = free_port()
        hub = HubService(
            store, eid, [str(line.path)], auto_advance=False, api=("127.0.0.1", port), td_pin=PIN
        )
        await hub.start()
        station.start()
        terminals = list(station.terminals.values())
        try:
            await wait_until(
                lambda: sum(len(t.log.held) for t in terminals) == 6, 60, "6 held results"
            )
            notices = [a for a in hub.alerts.texts if "do not match the boards" in a]
            # the console's held list shows each reason (read from the audit, written
            # in the background: a bounded wait)
            for _ in range(200):
                reasons = [h["reason"] for h in (await hub.snapshot())["held"]]
                if all("is not in" in r for r in reasons):
                    break
                await asyncio.sleep(0.05)
            held = [r for r in store.results(eid) if r.status == "held"]
            url = f"ws://127.0.0.1:{port}/v1"  # as `bridgehub hand-records` sends it
            answer = await send_hand_records(url, PIN, pbn(room), None, timeout=30)
            left = [r for r in store.results(eid) if r.status == "held"]
            live = store.live_results(eid)
        finally:
            await station.stop()
            await hub.stop()
            store.close()
            line.close()
        return terminals, notices, held, answer, left, live, reasons

    terminals, notices, held, answer, left, live, reasons = asyncio.run(scenario())
    assert len(reasons) == 6
    assert all("the opening leader) on board" in r and "check the lead card" in r for r in reasons)
    assert all(not t.log.refused for t in terminals)
    assert len(held) == 6 and all(r.lead for r in held)
    assert len(notices) == 1 and "rotated one seat clockwise" in notices[0]
    assert answer["ok"] and answer["boards"] == 10 and answer["missing"] == []
    assert sorted(answer["accepted"]) == sorted(r.id for r in held)
    assert answer["still_held"] == [] and left == []
    assert len(live) == 6


def test_hand_records_that_cannot_be_used_are_refused_and_nothing_changes(tmp_path):
    """The director's load_hand_records refuses a file that is not PBN, and one that holds
    none of the session's boards, saying so; the stored hand records stay as they were."""
    from hub.api.server import CommandError

    room = deals()
    (tmp_path / "hands.pbn").write_text(pbn(room), "utf-8")

    async def scenario() -> list[str]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT, base_dir=tmp_path)
        hub = HubService(store, eid, [], auto_advance=False)
        await hub.start()
        errors = []
        try:
            for text in ("this is not a PBN file", pbn({99: room[1]})):
                try:
                    await hub.commands.dispatch("load_hand_records", {"pbn": text}, "TD")
                except CommandError as e:
                    errors.append(str(e))
            assert store.hand_records(eid) == room
        finally:
            await hub.stop()
            store.close()
        return errors

    errors = asyncio.run(scenario())
    assert len(errors) == 2
    assert errors[0].startswith("the file is not valid PBN")
    assert errors[1] == (
        "the file holds boards 99; session 1 plays boards 1-10: none of them is in the file"
    )


def test_simulate_reads_the_hand_records_or_says_why_not(tmp_path):
    """`bridgehub simulate --hand-records`: a file it cannot use is refused with the reason
    before any station opens; a good one is announced (on stderr: the first line of stdout
    names the first station, which `bridgehub demo` reads)."""
    from click.testing import CliRunner

    from hub.cli.main import cli

    runner = CliRunner()
    bad = tmp_path / "empty.pbn"
    bad.write_text("% no boards here\n", "utf-8")
    out = runner.invoke(cli, ["simulate", "--hand-records", str(bad), "--duration", "0"])
    assert out.exit_code == 2 and "hold no [Board] with a [Deal]" in out.output
    good = tmp_path / "hands.pbn"
    good.write_text(pbn(deals()), "utf-8")
    args = ["simulate", "--tables", "1", "--hand-records", str(good), "--duration", "0"]
    args += ["--dir", str(tmp_path / "lines")]
    out = runner.invoke(cli, args)
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("base station BS-0001")
    assert f"hand records {good}: 10 boards" in out.stderr
