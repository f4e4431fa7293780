"""The parts that carry out the director's commands (decisions D1, D17), composed for
``HubService``: results, the room, pairs, hand records and team draws, behind the one
dispatcher that checks and audits every command."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from hub.api.feed import Feed
from hub.live.alerts import Alerts
from hub.live.clock_log import ClockLog
from hub.live.draw_edit import DrawEdits
from hub.live.gateway import TerminalGateway
from hub.live.hand_record_commands import HandRecordCommands
from hub.live.intake import Intake
from hub.live.publication import Publication
from hub.live.rounds import Rounds
from hub.live.scores import Scores
from hub.live.stored import Stored
from hub.live.td_commands import Commands
from hub.live.td_pair_commands import PairCommands
from hub.live.td_result_commands import ResultCommands
from hub.live.td_room_commands import RoomCommands
from hub.live.team_draws import TeamDraws
from hub.live.team_withdrawal import TeamWithdrawal
from hub.live.views import LiveViews
from hub.store.store import Store


class Composed(Protocol):
    """What the command parts use of the hub being composed (``HubService``, on its loop)."""

    store: Store
    event_id: int
    clock: Callable[[], float]
    feed: Feed
    alerts: Alerts
    rounds: Rounds
    scores: Scores
    publication: Publication
    clock_log: ClockLog
    gateway: TerminalGateway
    intake: Intake
    views: LiveViews
    web: Any  # the browser terminals' server, when there are some

    def devices(self) -> dict[str, Any]: ...


def director_commands(hub: Composed, stored: Stored) -> tuple[Commands, PairCommands, TeamDraws]:
    """The dispatcher over every command part, the pairs' part and the team draws."""
    results = ResultCommands(
        hub.store, hub.event_id, hub.rounds, hub.scores, hub.publication, hub.feed, hub.clock
    )
    room = RoomCommands(
        hub.store,
        hub.event_id,
        hub.rounds,
        hub.clock_log,
        hub.gateway,
        hub.intake,
        hub.views,
        hub.publication,
        hub.feed,
        hub.devices,
        lambda: hub.web.codes if hub.web is not None else None,
    )
    hands = HandRecordCommands(hub.scores, hub.alerts)
    pairs = PairCommands(hub.store, hub.event_id, stored, hub.rounds, hub.views)
    draws = TeamDraws(
        hub.store,
        hub.event_id,
        stored.event,
        stored.movements,
        hub.rounds,
        hub.views,
        hub.feed,
        hub.alerts,
        hub.clock,
    )
    draws.matches_changed = hub.rounds.on_round_started = hub.scores.publish_matches
    commands = Commands(
        hub.store,
        hub.event_id,
        results,
        room,
        pairs,
        hands,
        draws,
        TeamWithdrawal(draws),
        DrawEdits(draws),
        sections=list(hub.rounds.sections),
    )
    hands.dispatch = commands.dispatch  # held leads that fit new hand records
    return commands, pairs, draws
