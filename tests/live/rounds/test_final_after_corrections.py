"""The final results follow the corrections made after the end (issue 13 "the end of the
evening", "results on the wall"; reviewer R1). `bridgehub run` stays up after the last
round "for corrections", but wrote the final outputs only once, at the end: a held result
accepted or a score given afterwards left the printed standings, the report and the
exports older than the store. Now each correction (once the desk is quiet) writes them
again, and the hub's output and the director say so."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from hub_stub import wait_until
from late_pair_event import five_pairs

from hub.api.feed import Feed
from hub.cli.run_final import final_outputs
from hub.live.oversight.alerts import Alerts
from hub.store.store import ResultEntry, Store


def test_a_correction_after_the_end_writes_the_final_results_again(tmp_path, capsys):
    """late_pair_event's 3-table Mitchell. At the end board 1 has one result, T1 r1 NS 1 v
    EW 1 4S by N 10 tricks (+420): alone on the board, each side 1 of 2 MP, 50 %. Then the
    director scores T3 r2 NS 3 v EW 2, 3NT by N 9 tricks (+400): +420 beats +400, so NS 1
    has 2 of 2 (100 %) and EW 2 2 of 2 (100 %), NS 3 and EW 1 0 % (2/1 scale, top 2). A
    clock tick in between is no correction and writes nothing."""
    file = five_pairs(tmp_path)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
    store.record(eid, [ResultEntry("A", 1, 1, 1, 1, 4, contract="4S", declarer="N", tricks=10)])
    folder = tmp_path / "results"
    standings = folder / "standings.txt"

    async def scenario() -> tuple[str, str, list[str]]:
        feed = Feed()
        hub = SimpleNamespace(session_done=asyncio.Event(), alerts=Alerts(feed), feed=feed)
        hub.session_done.set()
        task = asyncio.create_task(final_outputs(hub, store, eid, folder, quiet_s=0.05))  # type: ignore[arg-type]

        def alerts() -> list[str]:
            return [e["text"] for e in feed.since(0) if e["event"] == "alert"]

        try:
            await wait_until(lambda: len(alerts()) == 1, 30, "the final results at the end")
            first = standings.read_text("utf-8")
            feed.publish("clock", section="A", round=3)
            await asyncio.sleep(0.3)
            await asyncio.to_thread(
                store.record,
                eid,
                [ResultEntry("A", 3, 2, 1, 3, 5, contract="3NT", declarer="N", tricks=9)],
            )
            feed.publish("board_changed", section="A", board=1, why="td_entry")
            await wait_until(lambda: len(alerts()) == 2, 30, "the rewritten final results")
            await asyncio.sleep(0.3)  # no third writing
            return first, standings.read_text("utf-8"), alerts()
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    try:
        first, again, alerts = asyncio.run(scenario())
    finally:
        store.close()
    assert "NS 1   Anna Berg & Partner 1                       50.00" in first
    assert "NS 1   Anna Berg & Partner 1                      100.00" in again
    assert "EW 2   Ivar Jung & Partner 5                      100.00" in again
    assert "EW 1   Gun Holm & Partner 4                         0.00" in again
    assert len(alerts) == 2  # at the end, and once after the correction (not the tick)
    assert alerts[1].startswith(f"final results written again to {folder}")
    assert f"final results written again to {folder}" in capsys.readouterr().out
