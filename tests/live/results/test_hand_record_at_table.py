"""Issue 14 [PUBLISH]: "makeable contracts shown … after a board is played at the table, on
the terminal (a protocol message of its own, in docs/protocol.md)": HAND_RECORD (0x28)
follows the table's RESULT_VIEW of a board that has a hand record. Its deal is the hand
record's and its double-dummy tricks are those RealBridge's own solver exported with the
deals (PBN OptimumResultTable), not ours. The round of ``suspicious_boards.flagged_round``:
boards b and b2 carry RealBridge's boards 11 and 12."""

from __future__ import annotations

import asyncio

import pytest
import suspicious_boards
from suspicious_boards import REALBRIDGE, flagged_round, optimum_tables

from drivers.protocol.messages import HandRecord, ResultView
from hub.event.hand_records import read_hand_records
from scoring.board import Seat
from scoring.contract import Strain

STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
SEATS = (Seat.N, Seat.S, Seat.E, Seat.W)


@pytest.mark.parametrize("check", [True, False], ids=["checked", "suspicious-check-off"])
def test_a_table_sees_the_hand_record_after_its_result(tmp_path, monkeypatch, check):
    """Also with the suspicious-score check off: the tables' hand records need double
    dummy all the same."""
    if not check:
        event = suspicious_boards.FLAGS_EVENT.replace(
            "[[sessions]]", "[rules.suspicious]\ncheck = false\n[[sessions]]", 1
        )
        monkeypatch.setattr(suspicious_boards, "FLAGS_EVENT", event)

    async def scenario():
        store, _, line, station, hub, b, b2 = await flagged_round(tmp_path)
        try:
            return {t.table: list(t.log.received) for t in station.terminals.values()}, b, b2
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    received, b, b2 = asyncio.run(scenario())
    deals = read_hand_records(REALBRIDGE)
    tables = optimum_tables(REALBRIDGE)
    for table, messages in received.items():
        hands = {m.board: m for m in messages if isinstance(m, HandRecord)}
        assert set(hands) == {b, b2}, f"table {table}: {sorted(hands)}"
        for ours, theirs in ((b, 11), (b2, 12)):
            hand = hands[ours]
            assert hand.deal == deals[theirs]
            tricks = dict(zip(((s, x) for x in STRAINS for s in SEATS), hand.tricks, strict=True))
            assert tricks == tables[theirs], f"table {table} board {ours}"
            assert hand.makeable and hand.par  # par: tests/event/test_double_dummy.py
            views = [
                k for k, m in enumerate(messages) if isinstance(m, ResultView) and m.board == ours
            ]
            assert views and views[0] < messages.index(hand), "after the table's own result"
