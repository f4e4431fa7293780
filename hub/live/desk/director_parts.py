"""The parts that carry out the director's commands (decisions D1, D17), one of the groups
``HubService._compose`` lists (the others are in ``hub.live.service.hub_parts``): results,
the room, pairs, hand records and team draws, behind the one dispatcher that checks and
audits every command; and the rounds' hooks they give (a round started: its matches; a
round complete: its standings, then the next team draw)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from hub.api.feed import Feed
from hub.live.desk.member_names import MemberName
from hub.live.desk.td_commands import Commands
from hub.live.desk.td_pair_commands import PairCommands
from hub.live.desk.td_result_commands import ResultCommands
from hub.live.desk.td_room_commands import RoomCommands
from hub.live.knockout.knockouts import Knockouts
from hub.live.knockout.ko_commands import KnockoutCommands
from hub.live.knockout.ko_section import knockout_sections
from hub.live.oversight.alerts import Alerts
from hub.live.port.gateway import TerminalGateway
from hub.live.results.hand_record_commands import HandRecordCommands
from hub.live.results.intake import Intake
from hub.live.results.scores import Scores
from hub.live.results.stored import Stored
from hub.live.rounds.clock_log import ClockLog
from hub.live.rounds.publication import Publication
from hub.live.rounds.section_rounds import Rounds
from hub.live.teams.draw_edit import DrawEdits
from hub.live.teams.team_draws import TeamDraws
from hub.live.teams.team_withdrawal import TeamWithdrawal
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
    snapshots: Any  # the API's snapshot (its knockout brackets are the knockouts' view)

    def devices(self) -> dict[str, Any]: ...


def director_commands(
    hub: Composed, stored: Stored, member_name: MemberName
) -> tuple[Commands, PairCommands, TeamDraws, Knockouts]:
    """The dispatcher over every command part, the pairs' part (``member_name``: a member
    number's name, the club roster's), the team draws and the knockouts."""
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
    knockouts = Knockouts(
        hub.store,
        hub.event_id,
        knockout_sections(stored.event, stored.movements),
        draws,
        hub.rounds,
        hub.feed,
        hub.alerts,
        hub.clock,
    )
    hub.scores.on_match = knockouts.brackets.result_in
    hub.snapshots.knockout = knockouts.brackets.shown
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
        KnockoutCommands(knockouts),
        sections=list(hub.rounds.sections),
    )
    hands.dispatch = commands.dispatch  # held leads that fit new hand records
    pairs.member_name = member_name  # the roster (G7)
    hub.rounds.on_round_complete = knockouts.after(draws.after(hub.publication.round_complete))
    return commands, pairs, draws, knockouts
