"""The groups of the hub's parts that ``HubService._compose`` lists (decisions D1, D17):
each builder is given the hub's parts built before it, builds its group, joins the group
to those parts (the callbacks they make into it) and returns it. The director's command
parts are built the same way, in ``hub.live.desk.director_parts``."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from hub.api.results_requests import ResultRequests
from hub.api.server import ApiServer
from hub.event.event_file import EventFile
from hub.live.desk.director_parts import Composed
from hub.live.desk.td_commands import Commands
from hub.live.oversight.audit_trail import AuditTrail
from hub.live.results.scores import Scores
from hub.live.results.stored import Stored
from hub.live.results.suspicious_scores import SuspiciousScores
from hub.live.rounds.late_start_watch import LateStartWatch
from hub.live.rounds.publication import Publication
from hub.live.rounds.round_setup import section_rounds
from hub.live.rounds.section_rounds import Rounds
from hub.live.rounds.session_end import SessionEnd
from hub.live.rounds.slow_play_watch import SlowPlayWatch
from hub.live.service.snapshot import Snapshots
from hub.live.service.warm_start import WarmStart
from hub.live.tables.silent_tables import SilentTables
from hub.live.tables.table_requests import TableRequests


class HubParts(Composed, Protocol):
    """What the groups use of the hub being composed (``HubService``, on its loop)."""

    event: EventFile
    audit: AuditTrail
    suspicious: SuspiciousScores
    warm: WarmStart
    silent: SilentTables
    snapshots: Snapshots
    commands: Commands


def round_parts(
    hub: HubParts,
    stored: Stored,
    *,
    auto_advance: bool,
    verification: bool,
    wait_for_director: bool,
) -> tuple[Rounds, SessionEnd]:
    """The sections' rounds (controllers and clocks, replayed from the stored clock
    events) and the session's end; rounds tell it, and the slow-play watch, of each
    session complete and each table finished, and the late-start watch of every event."""
    sections = section_rounds(
        hub.event,
        stored.movements,
        stored.clock_events,
        auto_advance=auto_advance,
        verification=verification,
    )
    rounds = Rounds(
        sections,
        hub.gateway,
        hub.feed,
        hub.alerts,
        hub.clock,
        hub.clock_log.record,
        wait_for_director,
    )
    session_end = SessionEnd(hub.store, hub.event_id, hub.feed, hub.alerts)
    rounds.on_session_complete = session_end.complete
    slow_play = SlowPlayWatch(
        hub.store,
        hub.event_id,
        hub.event.penalty_scale("slow_play"),
        lambda s: sections[s].clock,
        hub.feed,
    )
    rounds.on_table_finished = slow_play.table_finished
    late_start = LateStartWatch(
        hub.store,
        hub.event_id,
        hub.event.penalty_scale("late_arrival"),
        lambda s: sections[s],
        hub.feed,
    )
    rounds.on_event = late_start.event
    return rounds, session_end


def scoring_parts(hub: HubParts, stored: Stored) -> tuple[Scores, Publication, WarmStart]:
    """The live scores, the standings' publication (told when a result clears the flags
    that held it back) and the warm start that loads both after the lines answer."""
    scores = Scores(
        hub.store,
        hub.event_id,
        hub.event,
        hub.views,
        hub.suspicious,
        hub.gateway,
        hub.feed,
        hub.intake,
        hub.rounds.current,
    )
    publication = Publication(
        hub.store,
        hub.event_id,
        hub.event,
        stored.movements,
        hub.views.names,
        hub.feed,
        hub.suspicious,
        hub.gateway,
        hub.rounds.current,
    )
    warm = WarmStart(hub.store, hub.event_id, hub.intake, scores, publication, hub.alerts)
    scores.on_flags_changed = publication.publish_if_clear
    return scores, publication, warm


def table_parts(
    hub: HubParts, *, verification: bool, td_pin: str, event_dir: Path | None
) -> TableRequests:
    """What the tables ask (results, log-ons, erasures, player numbers, verification),
    each part waiting on the warm start where it needs the live results."""
    requests = TableRequests(
        hub.store,
        hub.event_id,
        hub.gateway,
        hub.intake,
        hub.rounds,
        hub.scores,
        hub.feed,
        hub.alerts,
        hub.audit,
        hub.clock,
        verification,
        td_pin=td_pin,
    )
    requests.player_numbers.event_dir = event_dir  # a store not beside the file
    requests.writer.priors = hub.warm.priors
    requests.erasures.ready = hub.warm.ready
    return requests


def snapshots(hub: HubParts) -> Snapshots:
    """The API's snapshot of the room: rounds, standings, flags, alerts, silent tables."""
    return Snapshots(
        hub.store,
        hub.event_id,
        hub.event.event.name,
        hub.rounds,
        hub.views,
        hub.publication,
        hub.suspicious,
        hub.alerts,
        hub.clock,
        hub.silent,
    )


def api_server(
    hub: HubParts, at: tuple[str, int] | None, td_pin: str, allow_remote_feed: bool
) -> ApiServer | None:
    """The API's server on ``at`` (host, port), or None without ``--api``: its snapshot
    and commands wait for the warm start."""
    if at is None:
        return None
    host, port = at
    return ApiServer(
        hub.feed,
        hub.warm.after(hub.snapshots.build),
        hub.warm.command(hub.commands.dispatch),
        td_pin,
        host=host,
        port=port,
        allow_remote_feed=allow_remote_feed,
        audit=hub.audit,
        requests=ResultRequests(hub.store, hub.event_id, lambda: hub.feed.seq),
        alert=hub.alerts.raise_,  # lock-outs by wrong PINs ([MENDS] #25)
    )
