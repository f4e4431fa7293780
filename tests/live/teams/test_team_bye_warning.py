"""[MENDS] #25 (TD trial G9): "A bye scores 0 VP unless [rules.teams.bye] is set, and
nothing warns about it". A teams section that will have byes, in an event file without
``[rules.teams.bye]``, is warned about at ``bridgehub event create`` and by the hub's alert
at start; an event with a bye rule, or without byes, is not.

The rounds with a bye are worked here from the field: 5 teams in a round robin or a Swiss
leave one team over in each of 5 rounds; 9 teams playing three-way matches (two rounds
each) over 4 rounds leave none, over 5 rounds one in round 5.
"""

from __future__ import annotations

import asyncio

import pytest
from click.testing import CliRunner
from team_events import drawn_event

from hub.cli.main import cli
from hub.live.service.hub_service import HubService
from hub.store.store import Store

BYE = '[rules.teams.bye]\nrule = "fixed"\nvp = "12"'


def round_robin(teams: int, rules: str = "") -> str:
    return drawn_event("swiss", teams, teams, rules=rules).replace('draw = "swiss"\n', "")


def create(tmp_path, text: str):
    path = tmp_path / "event.toml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["event", "create", str(path)])


@pytest.mark.parametrize(
    ("event", "rounds"),
    [
        (round_robin(5), "rounds 1, 2, 3, 4, 5"),
        (drawn_event("swiss", 5, 5), "rounds 1, 2, 3, 4, 5"),
        (drawn_event("swiss", 9, 5, 'odd = "three_way"'), "round 5"),
    ],
    ids=["round robin of 5", "swiss of 5", "three-ways over 5 rounds"],
)
def test_event_create_warns_that_a_bye_scores_nothing_without_a_bye_rule(tmp_path, event, rounds):
    result = create(tmp_path, event)
    assert result.exit_code == 0, result.output
    assert f"warning: section A: {rounds} will have a bye" in result.stderr
    assert "[rules.teams.bye]" in result.stderr and "0 VP" in result.stderr


@pytest.mark.parametrize(
    "event",
    [
        round_robin(5, BYE),
        drawn_event("swiss", 6, 5),
        drawn_event("swiss", 9, 4, 'odd = "three_way"'),
    ],
    ids=["a bye rule", "an even field", "three-ways pair every round"],
)
def test_no_warning_where_a_bye_is_scored_or_there_is_none(tmp_path, event):
    result = create(tmp_path, event)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr


def test_the_hub_raises_the_warning_as_an_alert_at_start(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'rr.db'}")
    eid = store.create_event(round_robin(5))
    hub = HubService(store, eid, [])

    async def scenario() -> list[str]:
        await hub.start()
        try:
            return [e["text"] for e in hub.feed.since(0) or [] if e["event"] == "alert"]
        finally:
            await hub.stop()

    alerts = asyncio.run(scenario())
    store.close()
    assert any("will have a bye" in a and "[rules.teams.bye]" in a for a in alerts), alerts
