"""Who holds a table and what reaches it (decisions D18, D20; issue [TRUST], "Tables"): a
table belongs to the link that logged on to it as well as to the serial it declared; the
director's PIN in LOGON takes a table over and is rate-limited; an event may register its
terminals; the terminal's ERASE erases the table's own result (docs/protocol.md); lost
assignments are sent again; refused frames are audited per terminal per minute; every
ranking page goes out; alerts name their section.

The hub runs whole (``HubService``, real SQLite store) behind a recording terminal port
(tests/trust_room.py), so every answer is the one a terminal would get."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any

import pytest
from hub_stub import wait_until
from trust_room import EVENT, PIN, Room, run_room

from drivers.base_station import BaseStationDriver
from drivers.protocol import messages as wire
from drivers.protocol.link import GaveUp, Nacked, Received
from hub.api.feed import Feed
from hub.event.event_file import EventFileError, parse_event
from hub.live.oversight.alerts import Alerts
from hub.live.oversight.audit_trail import AuditTrail
from hub.live.port import terminal_port as tp
from hub.live.port.base_station import BaseStationPort, request
from hub.live.rounds.publication import PAGE, Publication
from hub.live.tables.takeover_pin import BASE_S, LIMIT, PinVerdict, TakeoverPins
from hub.store.store import Store


# -- D20: a table belongs to its link as well as to its serial ---------------------------------
def test_a_table_belongs_to_the_link_that_logged_on_not_to_a_serial_claimed_elsewhere(tmp_path):
    """D20: the same serial from another address is refused the table (NAK 17), its seat is
    not relabelled, and a result it sends for the table is refused (NAK 16) and not stored;
    the holder's reboot (same address, new epoch) must log on again, and may."""

    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        await room.say(tp.Joined, 7, 1, "BM-1", False)  # a stranger's HELLO with the serial
        refused = await room.logon(7, "BM-1", 1)
        assert refused.reason is tp.Reason.TABLE_HELD, refused
        stranger = room.hub.gateway.seats[tp.TerminalRef("line", 7)]
        assert stranger.serial != "BM-1" and stranger.table is None
        sneaked = await room.result(7, 1, room.row(1).boards[0])
        assert sneaked.reason is tp.Reason.NOT_LOGGED_ON
        for _ in range(5):  # a noisy stranger: one audit row in full per minute, not five
            await room.result(7, 1, room.row(1).boards[0])
        rows = [r for r in await room.audit("refused") if r["detail"]["code"] == "NOT_LOGGED_ON"]
        assert len(rows) == 1 and rows[0]["detail"]["address"] == 7
        assert room.hub.store.live_results(room.hub.event_id, "A") == []
        # the holder reboots: a new session on the same address logs on again
        before = await room.result(1, 1, room.row(1).boards[0], session=2)
        assert before.reason is tp.Reason.NOT_LOGGED_ON
        assert (await room.logon(1, "BM-1", 1, session=2)).outcome is tp.Outcome.OK
        ok = await room.result(1, 1, room.row(1).boards[0], session=2)
        assert ok.outcome is tp.Outcome.ACCEPTED
        assert [a["actor"] for a in await room.audit("logon")] == ["BM-1", "BM-1"]

    run_room(tmp_path, scenario)


def test_takeover_with_the_directors_pin_works_and_wrong_pins_are_limited(tmp_path):
    """docs/protocol.md §3 and D20: LOGON with the TD PIN takes a held table (the old
    terminal leaves it); after 3 wrong PINs a terminal waits (even the right PIN is not
    compared), then may try again; every wrong PIN is audited."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        for _ in range(LIMIT):
            wrong = await room.logon(2, "BM-2", 1, pin="guess")
            assert wrong.reason is tp.Reason.DIRECTOR_PIN and "wrong" in wrong.text
        locked = await room.logon(2, "BM-2", 1, pin=PIN)
        assert locked.reason is tp.Reason.DIRECTOR_PIN and "too many" in locked.text
        assert len(await room.audit("takeover_pin_refused")) == LIMIT
        room.now[0] += BASE_S + 1
        taken = await room.logon(2, "BM-2", 1, pin=PIN)
        assert taken.outcome is tp.Outcome.OK, taken
        old = room.hub.gateway.seats[tp.TerminalRef("line", 1)]
        assert old.table is None and room.hub.intake.holders[("A", 1)] == "BM-2"
        assert (await room.audit("logon"))[-1]["detail"]["takeover"] is True
        back = await room.result(1, 1, room.row(1).boards[0])
        assert back.reason is tp.Reason.NOT_LOGGED_ON

    run_room(tmp_path, scenario)


def test_takeover_pin_waits_double_with_each_further_failure():
    """D20: exponential backoff after the limit; a right PIN resets the terminal's count."""
    now = [0.0]
    pins = TakeoverPins(PIN, lambda: now[0])
    ref = tp.TerminalRef("line", 3)
    waits = []
    for _ in range(LIMIT + 2):
        check = pins.check("BM-3", ref, "nope")
        assert check.verdict is PinVerdict.WRONG
        waits.append(check.wait_s)
        now[0] += check.wait_s
    assert waits == [0, 0, BASE_S, 2 * BASE_S, 4 * BASE_S]
    assert pins.check("BM-3", ref, PIN).ok
    assert pins.check("BM-3", ref, "nope").wait_s == 0  # counted afresh
    assert TakeoverPins("", lambda: 0.0).check("BM-3", ref, "").verdict is PinVerdict.OFF


def test_an_unregistered_terminal_is_refused_when_the_event_lists_its_terminals(tmp_path):
    """D20: ``[room] terminals`` registers serials; any other log-on is refused, with the
    reason, and audited."""
    event = EVENT + '[room]\nterminals = ["BM-1", "BM-2"]\n'

    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        refused = await room.logon(9, "BM-9", 2)
        assert refused.reason is tp.Reason.NOT_REGISTERED
        assert "BM-9 is not registered" in refused.text
        (row,) = await room.audit("refused")
        assert row["actor"] == "BM-9" and row["detail"]["code"] == "NOT_REGISTERED"

    run_room(tmp_path, event=event, scenario=scenario)
    with pytest.raises(EventFileError, match=r"room\.terminals\[1\]"):
        parse_event(EVENT + '[room]\nterminals = ["BM-1", ""]\n')


# -- ERASE (docs/protocol.md) -------------------------------------------------------------------
def test_a_tables_erase_erases_its_own_result_and_the_table_enters_it_again(tmp_path):
    """docs/protocol.md ERASE: the table's result is erased (audited with the terminal as
    actor, on the feed), the board is open again at the table, and a new entry counts."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        board = room.row(1).boards[0]
        assert (await room.result(1, 1, board)).outcome is tp.Outcome.ACCEPTED
        ctl = room.hub.sections["A"].controller
        assert ctl.done(1) == 1
        ok = await room.erase(1, 1, board, revision=1)
        assert ok.outcome is tp.Outcome.OK and "enter it again" in ok.text
        assert room.hub.store.live_results(room.hub.event_id, "A") == []
        assert ctl.done(1) == 0
        (row,) = await room.audit("erase")
        assert row["actor"] == "BM-1" and row["detail"]["board"] == board
        changed = room.events("board_changed")
        assert changed[-1]["why"] == "erased_at_table" and changed[-1]["board"] == board
        again = await room.result(1, 1, board, revision=2)
        assert again.outcome is tp.Outcome.ACCEPTED and ctl.done(1) == 1

    run_room(tmp_path, scenario)


def test_an_erase_is_refused_for_another_table_a_board_without_result_or_a_round_over(tmp_path):
    """docs/protocol.md ERASE: only the table's holder, only a stored result of the current
    round; a round that is over is the director's (its standings may be out)."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        await room.logon(2, "BM-2", 2)
        board = room.row(1).boards[0]
        await room.result(1, 1, board)
        other = await room.erase(2, 1, board)
        assert other.reason is tp.Reason.NOT_LOGGED_ON
        nothing = await room.erase(1, 1, room.row(1).boards[1])
        assert nothing.reason is tp.Reason.NOT_ALLOWED and "no result" in nothing.text
        stale = await room.erase(1, 1, board, revision=5)
        assert stale.reason is tp.Reason.NOT_ALLOWED and "revision 1" in stale.text
        await room.hub.rounds.next_round("A")
        over = await room.erase(1, 1, board)
        assert over.reason is tp.Reason.NOT_ALLOWED and "ask the director" in over.text
        assert len(room.hub.store.live_results(room.hub.event_id, "A")) == 1
        assert len(await room.audit("erase_refused")) == 3

    run_room(tmp_path, scenario)


def test_the_base_station_maps_erase_to_an_erase_request_in_the_terminals_session():
    """D18: the adapter turns ERASE into the port's request, carrying the frame's epoch."""
    rx = Received(4, 77, 3, wire.Erase("A", 2, 1, 5, 2))
    req = request("station-0", rx)
    assert isinstance(req, tp.EraseRequest)
    assert (req.table, req.round, req.board, req.revision) == (2, 1, 5, 2)
    assert req.link == tp.TerminalLink(tp.TerminalRef("station-0", 4), 77)


# -- NAKs and give-ups of the hub's messages ---------------------------------------------------
def test_the_base_station_reports_naks_and_give_ups_of_hub_messages():
    """C6: the link's ``Nacked`` and ``GaveUp`` reach the hub as ``Undelivered``, a lost
    assignment with its content."""

    async def scenario() -> list[tp.Inbound]:
        driver = BaseStationDriver("pty:///nowhere", epoch=1)
        port = BaseStationPort(driver, "station-0")
        msg = wire.Assignment("A", 1, 2, 3, 4, (5, 6))
        driver.events.put_nowait(GaveUp(3, msg, 8))
        driver.events.put_nowait(Nacked(3, wire.TDMessage("hi"), wire.NakCode.REPLAY, "old"))
        pump = asyncio.ensure_future(port.pump())
        try:
            await wait_until(lambda: port.inbound.qsize() == 2, 5, "both events")
        finally:
            pump.cancel()
        return [port.inbound.get_nowait() for _ in range(2)]

    gave_up, nacked = asyncio.run(scenario())
    assert isinstance(gave_up, tp.Undelivered) and gave_up.what == "assignment"
    assert gave_up.code is None and gave_up.tries == 8
    assert gave_up.assignment == tp.TableAssignment("A", 1, 2, 3, 4, (5, 6))
    assert isinstance(nacked, tp.Undelivered) and nacked.what == "message"
    assert (nacked.code, nacked.code_name, nacked.text) == (5, "REPLAY", "old")


def test_a_lost_assignment_is_sent_again_at_the_terminals_next_contact(tmp_path, caplog):
    """C6: an ASSIGNMENT the terminal never answered (or NAKed as a link fault) is sent
    again when the terminal is next heard; a refusal of content is only logged, with its
    code."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        sent = room.port.assignments(1)
        ref = tp.TerminalRef("line", 1)
        room.port.inbound.put_nowait(tp.Undelivered(ref, "assignment", tries=8))
        await room.say(tp.Other, 1, 1)  # a heartbeat: the next contact
        assert room.port.assignments(1) == sent + 1
        await room.say(tp.Other, 1, 1)
        assert room.port.assignments(1) == sent + 1  # once
        room.port.inbound.put_nowait(
            tp.Undelivered(ref, "ranking", 20, "NOT_ALLOWED", "no room for it")
        )
        room.port.inbound.put_nowait(tp.Undelivered(ref, "assignment", 20, "NOT_ALLOWED", "x"))
        await room.say(tp.Other, 1, 1)
        assert room.port.assignments(1) == sent + 1

    with caplog.at_level("WARNING"):
        run_room(tmp_path, scenario)
    assert any(
        "NAK 20 NOT_ALLOWED" in r.getMessage() and "ranking" in r.getMessage()
        for r in caplog.records
    )


# -- refused frames, in aggregate --------------------------------------------------------------
def test_refused_frames_are_audited_once_per_terminal_per_minute(tmp_path):
    """D20 / S8: a noisy line costs one audit row per terminal per minute, with the count and
    the reasons, not a write per frame (injected clock)."""

    async def scenario() -> list[dict[str, Any]]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        now = [0.0]
        audit = AuditTrail(store, eid, clock=lambda: now[0])
        for k in range(100):
            now[0] = k * 0.5  # 50 s of noise
            audit.tally("BM-1", "frames_refused", "REPLAY" if k % 4 else "STALE_EPOCH")
        await audit.flush(final=False)
        assert store.audit_log(eid, "frames_refused") == []  # the minute is not over
        now[0] = 61.0
        audit.tally("BM-1", "frames_refused", "REPLAY")
        await audit.flush(final=False)
        assert len(store.audit_log(eid, "frames_refused")) == 1
        await audit.flush()  # at stop: the minute still counting too
        rows = store.audit_log(eid, "frames_refused")
        store.close()
        return rows

    first, last = asyncio.run(scenario())
    assert first["actor"] == "BM-1" and first["detail"]["count"] == 100
    assert first["detail"]["reasons"] == {"STALE_EPOCH": 25, "REPLAY": 75}
    assert last["detail"]["count"] == 1


def test_the_hub_tallies_refused_frames_instead_of_writing_each(tmp_path):
    """D20 / S8: the hub's handling of the port's ``Rejected`` goes through the tally."""

    async def scenario(room: Room) -> None:
        ref = tp.TerminalRef("line", 5)
        for _ in range(40):
            room.port.inbound.put_nowait(tp.Rejected(ref, "REPLAY", "seq 3 is old"))
        await room.say(tp.Other, 5, 1)
        await room.hub.audit.flush(final=False)
        assert await room.audit("frames_refused") == []
        await room.hub.audit.flush()
        (row,) = await room.audit("frames_refused")
        assert row["detail"]["count"] == 40 and row["detail"]["reasons"] == {"REPLAY": 40}

    run_room(tmp_path, scenario)


# -- ranking pages, alerts ---------------------------------------------------------------------
def test_every_ranking_page_reaches_the_terminals():
    """C13: a field over 32 entrants gets every page, numbered page/pages, every entrant
    once, in order."""
    event = parse_event(EVENT)
    sent: list[tp.RankingView] = []

    class Tables:
        def rankings(self, section: str, pages: list[tp.RankingView]) -> None:
            sent.extend(pages)

        def broadcast(self, text: str, section: str | None = None, beep: bool = True) -> int:
            return 0

    class Movement:
        rounds = 71

    pub = Publication(
        None,  # type: ignore[arg-type]
        1,
        event,
        {"A": Movement()},  # type: ignore[dict-item]
        {"A": {}},
        Feed(),
        None,  # type: ignore[arg-type]
        Tables(),
        lambda s: 1,
    )
    rows = [
        {"rank": str(n), "pair": n, "total": str(Fraction(7000 - n, 100)), "name": ""}
        for n in range(1, 71)
    ]
    pub.last["A"] = {"round": 1, "rows": rows}
    pub.send_rankings("A", 1)
    assert [(p.page, p.pages) for p in sent] == [(1, 3), (2, 3), (3, 3)]
    assert [len(p.lines) for p in sent] == [PAGE, PAGE, 70 - 2 * PAGE]
    assert [x.entrant for p in sent for x in p.lines] == list(range(1, 71))


def test_an_alert_names_its_section_in_the_feed_and_in_the_snapshot():
    """C13: a multi-section room reads which section an alert is about."""
    feed = Feed()
    alerts = Alerts(feed)
    alerts.raise_("a second, different result for table 1 round 1 board 3", section="B", table=1)
    alerts.raise_("TD call at table B2", section="B")
    (first, second) = [e for e in feed.since(0) or [] if e["event"] == "alert"]
    assert first["section"] == "B" and first["text"].startswith("section B: ")
    assert second["text"] == "TD call at table B2"
    assert alerts.recent()[0].startswith("section B: ")
