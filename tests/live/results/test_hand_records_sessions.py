"""Hand records of every session are used (issue [TRUST]): a section plays its own
session's deals, for intake's lead check and for double dummy. Before the fix the hub read
the first session's hand records for every section, so board 1 of the evening was checked
against board 1 of the afternoon. Real SQLite, real PBN files (RealBridge deals), endplay."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hub_stub import wait_until

from hub.event.double_dummy import double_dummy
from hub.event.hand_records import read_hand_records
from hub.live.port.terminal_port import ResultSubmission, TerminalRef
from hub.live.results.hand_record_check import lead_misfit
from hub.live.results.intake import Intake
from hub.live.results.stored import Stored
from hub.live.service.hub_service import HubService
from hub.store.store import Store

REALBRIDGE = Path(__file__).parents[2] / "data" / "realbridge_2021_online_qual_open_r2.pbn"

TWO_SESSIONS = """schema_version = 1
[event]
name = "Two sessions"
[rules]
scoring = "mp"
[[sessions]]
name = "Afternoon"
hand_records = "afternoon.pbn"
[[sessions.sections]]
letter = "A"
movement = { kind = "howell", tables = 3, boards_per_round = 2 }
[[sessions]]
name = "Evening"
hand_records = "evening.pbn"
[[sessions.sections]]
letter = "B"
movement = { kind = "howell", tables = 3, boards_per_round = 2 }
"""


@pytest.fixture
def store(tmp_path):
    """Board 1 of the afternoon is RealBridge board 11, board 1 of the evening board 12:
    11's East holds Q5.KJ52.KQ874.T8, 12's East A74.AQ2.K8752.92 (the PBN file's own text)."""
    deals = read_hand_records(REALBRIDGE)
    for name, theirs in (("afternoon", 11), ("evening", 12)):
        (tmp_path / f"{name}.pbn").write_text(f'[Board "1"]\n[Deal "{deals[theirs]}"]\n', "utf-8")
    s = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    s.create_event(TWO_SESSIONS, base_dir=tmp_path)
    yield s
    s.close()


def _row(store: Store, section: str):
    return next(r for r in store.movement(1, section).rows if 1 in r.boards)


def _lead(intake: Intake, store: Store, section: str, lead: str) -> str | None:
    """Why intake holds the lead for the director (F3: held, not refused), or None."""
    row = _row(store, section)
    return lead_misfit(intake.deals, intake.entry(
        "BM-1",
        ResultSubmission(
            TerminalRef("line", 1), None, section, row.table, row.round, 1,
            row.ns_pair, row.ew_pair, "3NT", "N", lead, 9, 1,
        ),
    ))  # fmt: skip


def test_the_lead_check_reads_each_sections_own_session(store):
    """North declares, so East leads: the ace of spades is East's on the evening's board 1
    only, the queen of spades East's on the afternoon's only."""
    stored = Stored.read(store, 1)
    intake = Intake(stored.movements, lambda *_: None)
    intake.load(stored.live, stored.deals)
    assert _lead(intake, store, "B", "SA") is None  # the evening's deal: it fits
    assert _lead(intake, store, "A", "SQ") is None  # the afternoon's deal: it fits
    assert "SQ is not in E's hand" in (_lead(intake, store, "B", "SQ") or "")
    assert "SA is not in E's hand" in (_lead(intake, store, "A", "SA") or "")


def test_double_dummy_solves_each_sections_own_deal(store):
    """The hub's double-dummy tables: section B's board 1 is the evening's deal, checked
    against endplay's solution of that deal read straight from the PBN file."""
    deals = read_hand_records(REALBRIDGE)

    async def started() -> dict:
        hub = HubService(store, 1, [], auto_advance=False)
        await hub.start()
        try:
            await wait_until(lambda: len(hub.suspicious.makeable) == 2, 30, "double dummy")
            return dict(hub.suspicious.makeable)
        finally:
            await hub.stop()

    makeable = asyncio.run(started())
    assert makeable[("A", 1)] == dict(double_dummy(deals[11], 1).tricks)
    assert makeable[("B", 1)] == dict(double_dummy(deals[12], 1).tricks)
    assert makeable[("A", 1)] != makeable[("B", 1)]
