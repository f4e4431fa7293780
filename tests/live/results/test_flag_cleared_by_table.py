"""Decisions D12: standings withheld for a suspicious-score flag go out as soon as no
question is left, also when the table itself corrects the result from its terminal (a
correction, next revision, accepted without the director). Before the review's fix only a
director's act (contract valid, a TD entry, an erasure, a held decision) checked the
withheld round again, so a table's own correction left round 1's standings withheld until
the next round completed (then round 1 was never published by itself) or, in the last
round, until the director released them by hand."""

from __future__ import annotations

import asyncio

from hub_stub import wait_until
from suspicious_boards import flagged_round

from hub.live.port.terminal_port import ResultSubmission
from hub.live.results.result_writer import Queued


def test_d12_a_tables_own_correction_that_clears_the_flag_publishes_the_round(tmp_path):
    async def scenario():
        store, eid, line, station, hub, _b, b2 = await flagged_round(
            tmp_path, only_double_dummy=True
        )
        try:
            assert [(f.board, f.table) for f in hub.suspicious.all_flags()] == [(b2, 1)]
            assert hub.publication.withheld == {"A": 1}
            row = hub.sections["A"].movement.row("A", 1, 1)
            first = next(r for r in store.live_results(eid, "A") if (r.table, r.board) == (1, b2))
            revision = int(first.submission_key.rsplit(":", 1)[-1]) + 1
            # table 1 corrects 4H by S, 5 tricks, to the 10 tricks double dummy allows
            fix = ResultSubmission(
                hub.intake.links[("A", 1)].ref, None, "A", 1, 1, b2, row.ns_pair, row.ew_pair,
                "4H", "S", "", 10, revision,
            )  # fmt: skip
            writer, answers = hub.requests.writer, []
            writer.answer = lambda s, out: answers.append(out.outcome.value)  # not the wire
            await writer.write([Queued("BM-1", fix)])
            assert answers == ["accepted"]
            assert hub.suspicious.all_flags() == []
            await wait_until(
                lambda: any(e["event"] == "standings" for e in hub.feed.since(0) or []),
                10,
                "round 1's standings published once the table's correction cleared the flag",
            )
            assert hub.publication.withheld == {}
            assert [e["round"] for e in hub.feed.since(0) if e["event"] == "standings"] == [1]
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    asyncio.run(scenario())
