"""What the live results pages may show while the session runs (issue [PUBLISH]): the
travellers of boards every table of the session has finished (every section: they play the
same deals), outside the rounds whose rankings the event hides (``[rules.display]
hide_rankings_last_rounds``: a barometer's last rounds, TD trial F13), and the score-card
lines of those boards only. Once the final standings of the session are published nothing
is held back. Read from the store, as the hub's API serves it.

The rankings are not taken from here: the pages show the standings the hub published
(decisions D12), from its feed, which already hides what the event hides.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from hub.report.model import ReportModel, SectionReport
from hub.report.team_build import cross_table
from hub.report.team_model import TeamCard
from hub.store.store import Store


@dataclass(frozen=True, slots=True)
class SectionRelease:
    """One section's boards whose travellers may be shown now. ``played``: every board of
    its session's movements has its result at every table; ``complete``: the final
    standings of every section of its session are published (the final picture: nothing
    is held back)."""

    letter: str
    boards: frozenset[int]
    complete: bool
    played: bool = False


@dataclass(frozen=True, slots=True)
class _Plays:
    """Where a section plays each board (its table-rounds, sit-outs aside), which boards
    every one of those has a live result for, the first round whose rankings the event
    hides (past the last: none), and whether its final standings are published."""

    needs: dict[int, list[tuple[int, int]]]
    finished: frozenset[int]
    first_hidden: int
    final: bool

    @property
    def played(self) -> bool:
        return len(self.finished) == len(self.needs)

    def hides(self, board: int) -> bool:
        return any(rnd >= self.first_hidden for _t, rnd in self.needs[board])


def _plays(store: Store, event_id: int, letter: str, hide_last: int, published: int) -> _Plays:
    movement = store.movement(event_id, letter)
    played = {(r.table, r.round, r.board) for r in store.live_results(event_id, letter)}
    needs: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for row in movement.rows:
        if row.section != letter or not row.ns_pair or not row.ew_pair:
            continue
        for board in row.boards:
            needs[board].append((row.table, row.round))
    finished = frozenset(
        b for b, where in needs.items() if all((t, rnd, b) in played for t, rnd in where)
    )
    final = published >= movement.rounds > 0
    return _Plays(dict(needs), finished, movement.rounds - hide_last + 1, final)


def published_rounds(store: Store, event_id: int) -> dict[str, int]:
    """The last round whose standings the hub published, per section (its audit trail's
    ``standings_published``: the feed's ``standings``, hub/live/rounds/publication.py)."""
    out: dict[str, int] = {}
    for row in store.audit_log(event_id, "standings_published"):
        detail = row.get("detail") or {}
        section, rnd = detail.get("section"), detail.get("round")
        if isinstance(section, str) and isinstance(rnd, int):
            out[section] = max(rnd, out.get(section, 0))
    return out


def section_releases(store: Store, event_id: int) -> dict[str, SectionRelease]:
    """Each section's release from its movement, its live results and its publications.
    The sections of a session play the same deals (its hand records: ``section_deals``),
    so a board is finished when each table-round of every section of the session that
    plays it (sit-outs aside) has a live result: a board done in section A and still in
    play in B is not shown in A either. It is released when finished and none of those
    rounds is hidden (``hide_rankings_last_rounds``, in each section's own movement);
    with travellers ``never`` shown, nothing is. All is shown once the final standings of
    every section of the session are out, as the result screens show them (hidden rounds
    stay hidden until the final results, also when their results are all in: the TD may
    hold the final standings for a suspicious score, decisions D12)."""
    event = store.event(event_id)
    display = event.rules.display
    published = published_rounds(store, event_id)
    plays = {
        x: _plays(store, event_id, x, display.hide_rankings_last_rounds, published.get(x, 0))
        for x in store.sections(event_id)
    }
    session_of: dict[str, int] = {}
    for n, session in enumerate(event.sessions):
        for section in session.sections:
            session_of.setdefault(section.letter, n)
    out = {}
    for letter, own in plays.items():
        peers = [p for x, p in plays.items() if session_of.get(x) == session_of.get(letter)]
        complete = all(p.final for p in peers)
        if complete:
            shown = set(own.needs)
        elif display.travellers == "never":
            shown = set()
        else:
            shown = {
                b
                for b in own.finished
                if all(b in p.finished and not p.hides(b) for p in peers if b in p.needs)
            }
        played = all(p.played for p in peers)
        out[letter] = SectionRelease(letter, frozenset(shown), complete, played)
    return out


def released(model: ReportModel, releases: dict[str, SectionRelease]) -> ReportModel:
    """``model`` with only what may be shown: released travellers, score-card lines of
    released boards (and sit-outs), the team matches whose boards are all released (with
    their rounds' byes, the team cards' rows and the cross-table of those), and no
    ranking, place or total before a section is complete (the pages take those from the
    published standings)."""
    sections = []
    for s in model.sections:
        rel = releases.get(s.letter)
        if rel is not None and rel.complete:
            sections.append(s)
            continue
        boards = rel.boards if rel is not None else frozenset()
        sections.append(_held_back(s, boards))
    return replace(model, sections=tuple(sections))


def _held_back(s: SectionReport, boards: frozenset[int]) -> SectionReport:
    travellers = tuple(b for b in s.travellers if b.board in boards)
    cards = tuple(
        replace(
            c,
            rank="",
            points="",
            total="",
            rows=tuple(r for r in c.rows if r.board == 0 or r.board in boards),
        )
        for c in s.cards
    )
    matches = tuple(m for m in s.matches if all(b.board in boards for b in m.boards))
    shown = {(m.round, m.home) for m in matches} | {(m.round, m.away) for m in matches}
    rounds = {m.round for m in matches} - {m.round for m in s.matches if m not in matches}
    byes = tuple(b for b in s.byes if b.round in rounds)
    team_cards = tuple(_team_card(c, shown, rounds) for c in s.team_cards)
    names = {c.team: c.name for c in s.team_cards}
    return replace(
        s,
        rankings=(),
        travellers=travellers,
        cards=cards,
        matches=matches,
        byes=byes,
        team_cards=team_cards,
        cross_table=cross_table(matches, sorted(names), names),
    )


def _team_card(c: TeamCard, shown: set[tuple[int, int]], rounds: set[int]) -> TeamCard:
    """A team card with the rows of the matches shown and the byes of rounds shown, and no
    place or total (those come with the published standings)."""
    rows = tuple(
        r for r in c.rows if (r.round, c.team) in shown or (not r.seats and r.round in rounds)
    )
    return replace(c, rank="", total="", imps="", other_vp="", rows=rows)
