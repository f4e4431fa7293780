"""Issue 16: team penalties in VP and IMP that the director gives (``add_penalty``) change
the standings and are audited. Seed 002's mobile-phone penalty at teams is 2 VP or 6 IMP;
seed 000's is 3 VP or 15 IMP.

tests/cli/test_team_draw_cli.py's worked round 1: team 3 beat team 4 by 1 IMP over 2 boards;
team 1 beat team 2 by 29 IMPs (20-0 on any 20-point scale). A 6 IMP penalty on team 3
(NS at table 3 in round 1) comes off its match before the VPs: team 4 wins 5 IMPs over 2
boards, 13.78-6.22 in the official WBF continuous table (tests/data/
wbf_vp_continuous_oracle.csv, as tests/console/test_console_matches.py reads it). A 3 VP penalty on
team 1 leaves it 17.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest
from team_events import stored_round_1

from hub.api.server import CommandError
from hub.live.service.hub_service import HubService
from hub.store.store import Store


def test_the_directors_imp_and_vp_penalties_change_the_team_standings(tmp_path):
    url, eid = stored_round_1(tmp_path)
    store = Store.open(url)

    async def scenario():
        hub = HubService(store, eid, [])
        await hub.start()
        try:
            imps = {"section": "A", "table": 3, "round": 1, "amount": "6", "unit": "IMP"}
            imps |= {"payer": "NS", "reason": "mobile phone rang (seed 002)"}
            told = await hub.commands.dispatch("add_penalty", imps, "TD")
            vps = imps | {"table": 1, "amount": "3", "unit": "VP", "reason": "phone"}
            await hub.commands.dispatch("add_penalty", vps, "TD")
            with pytest.raises(CommandError, match="table A5 has no match or pairs in round 1"):
                await hub.commands.dispatch("add_penalty", imps | {"table": 5}, "TD")
            with pytest.raises(CommandError, match="amount: '1/0' divides by zero"):
                await hub.commands.dispatch("add_penalty", imps | {"amount": "1/0"}, "TD")
            with pytest.raises(CommandError, match="scored in VPs: a team penalty is in VP or IMP"):
                await hub.commands.dispatch("add_penalty", imps | {"unit": "percent_of_top"}, "TD")
            return told, {r["team"]: Fraction(r["total"]) for r in hub.standings_rows("A")}
        finally:
            await hub.stop()

    told, totals = asyncio.run(scenario())
    audit = store.audit_log(eid)
    store.close()
    assert told["applied_to_standings"]
    assert totals == {1: 17, 2: 0, 4: Fraction("13.78"), 3: Fraction("6.22")}
    confirmed = [a for a in audit if a["action"] == "penalty_confirmed"]
    assert len(confirmed) == 2
    assert [a["action"] for a in audit].count("command add_penalty") == 2


def test_the_final_standings_text_of_a_team_event_heads_its_column_team(tmp_path):
    """standings.txt (``bridgehub run``'s final outputs): a teams ranking lists teams."""
    from hub.report.build import build_report
    from hub.report.final import standings_text

    url, eid = stored_round_1(tmp_path)
    store = Store.open(url)
    try:
        text = standings_text(build_report(store, eid))
    finally:
        store.close()
    head = next(line for line in text.splitlines() if "Place" in line)
    assert head.split()[:2] == ["Place", "Team"] and "VPs" in head
