"""How a teams section is scored: the one place the live view (``TeamsLive``) and the batch
rebuild (``teams_view``) both ask, so the two always agree.

- A match is one pair of tables (open, closed) over the movement rounds of one event round:
  with ``segments`` S, rounds (k−1)·S+1 … k·S are match k (seed 004: 24 boards in two
  halves). The seating switches between segments, so on each board the home team's net is
  the NS score where it sits NS less the NS score where it sits EW; IMPs carry across the
  segments and the VPs are worked out once, on the whole match, with the scale of its
  round (``[rules.teams] vp_scales``, else ``rules.vp_scale``).
- A three-way (``Layout.three_ways``) is three matches whose rooms are a round apart at
  different tables; each counts in event round N+1, when both its rooms have played, and
  its three teams play (no bye) in rounds N and N+1.
- A board with an adjusted score in a room is scored with the home team's assigned IMPs
  (Law 86, ``TeamRules.board_imps``).
- Carry-over in IMPs (``higher_seed_imps``, ``fixed_imps``) and the TD's IMP penalties of
  the match go into the match before its VPs.
- VPs outside matches: byes, late joiners' assigned VPs, VPs carried from an earlier
  stage, VP penalties (``vp_adjustments``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from hub.event.event_file import EventFile, GeneratedMovement, KnockoutMovement
from hub.event.movement.model import Layout, Movement, MovementRow
from hub.event.team_rules import RoomResult
from hub.event.vp_table_file import load_scale
from hub.standings.team_penalties import TeamPenalty, team_penalties
from scoring.draw.methods import DEFAULT_RULE
from scoring.errors import ScoringInputError
from scoring.late_joiners import joiner_vp
from scoring.team_match import TeamBoard, score_match
from scoring.team_standings import PlayedMatch
from scoring.team_ties import TieBreakRule, rule_from_names
from scoring.vp_scale import VPScale

__all__ = ["MatchKey", "TeamPenalty", "TeamSection", "team_penalties", "tie_rule"]

MatchKey = tuple[int, int]  # the match's pair of tables (index in layout.matches), event round
NSScore = Callable[[int, int, int], RoomResult | None]  # table, round, board → NS score


def tie_rule(event: EventFile, layout: Layout, reached: int = 0) -> TieBreakRule:
    """The team tie-break rule of the standings after event round ``reached``: the last
    ``tie_breaks_after`` from a round ≤ ``reached`` (seed 000 §6-1), else ``tie_breaks``,
    else a drawn event's own method's (a Swiss is ranked as it is drawn: seed 000's chain),
    else VP alone (a knockout's standings are its bracket's places: VP is only a tally)."""
    later = [e.tie_breaks for e in event.rules.tie_breaks_after if e.round <= reached]
    names = later[-1] if later else event.rules.tie_breaks
    if names or layout.draw not in DEFAULT_RULE:
        return rule_from_names(names)
    return DEFAULT_RULE[layout.draw]


@dataclass(frozen=True, slots=True)
class Segment:
    """One segment of a match: its movement round, the table where the home team sits NS,
    the one where it sits EW, and the boards; ``ew_round`` is the round of the EW room
    when it differs (a three-way's rooms are a round apart)."""

    round: int
    home_ns_table: int
    home_ew_table: int
    boards: tuple[int, ...]
    ew_round: int = 0

    @property
    def home_ew_round(self) -> int:
        return self.ew_round or self.round

    def other_room(self, table: int, rnd: int) -> tuple[int, int] | None:
        """The (table, round) of the other room, given one of the two."""
        ns, ew = (self.home_ns_table, self.round), (self.home_ew_table, self.home_ew_round)
        return ew if (table, rnd) == ns else ns if (table, rnd) == ew else None


@dataclass(frozen=True, slots=True)
class PlannedMatch:
    key: MatchKey
    home: int
    away: int
    segments: tuple[Segment, ...]


class TeamSection:
    """A teams section's matches and rules, from the event file and the movement. Pure and
    frozen after construction: any thread (the live view keeps one)."""

    def __init__(self, event: EventFile, section: str, movement: Movement) -> None:
        self.section = section
        self.rules = event.rules.teams
        self.default_scale = event.rules.vp_scale
        self.per_match = max(1, movement.layout.segments)
        self.layout = movement.layout
        self._scales: dict[str, VPScale] = {self.default_scale: load_scale(self.default_scale)}
        for i, stage in enumerate(self.rules.vp_scales):  # a bad table stops the start,
            try:  # not a match in the middle of the event
                self._scales[stage.scale] = load_scale(stage.scale)
            except ScoringInputError as e:
                raise ScoringInputError(
                    f"rules.teams.vp_scales[{i}].scale", f"{stage.scale}: {e.message}"
                ) from None
        self.plan: dict[MatchKey, PlannedMatch] = {}
        self._key_of: dict[tuple[int, int], MatchKey] = {}
        for i, tables in enumerate(movement.layout.matches):
            self._plan_matches(movement, i, tables)
        self._plan_three_ways(movement)
        self._ns_table = {
            (r.ns_pair, r.round): r.table for r in movement.rows if r.section == section
        }
        self.playing: dict[int, set[int]] = {}
        for m in self.plan.values():
            self.playing.setdefault(m.key[1], set()).update((m.home, m.away))
        for way in movement.layout.three_ways:  # its first round: no bye either
            self.playing.setdefault(self.event_round(way.round), set()).update(way.teams)
        self.known = {k for k in self.playing if not movement.layout.undrawn(self.first_round(k))}
        listed: set[int] = set()
        for sec in (x for s in event.sessions for x in s.sections if x.letter == section):
            listed |= {t.number for t in sec.teams}
            g = sec.movement  # a drawn event's teams are 1 … teams, listed or not (D19)
            drawn = isinstance(g, GeneratedMovement) and bool(g.draw)
            if (
                isinstance(g, KnockoutMovement | GeneratedMovement)
                and g.teams
                and (drawn or isinstance(g, KnockoutMovement))
            ):
                listed |= set(range(1, g.teams + 1))
        self.teams = sorted(listed | {t for ts in self.playing.values() for t in ts})

    def _plan_matches(self, movement: Movement, i: int, tables: tuple[int, int]) -> None:
        """The matches at the ``i``-th pair of tables, one per event round: the home team
        is the open room's NS team of the first segment (EW in a switched segment)."""
        open_t, closed_t = tables
        by_round: dict[int, list[MovementRow]] = {}
        for r in range(1, movement.rounds + 1):
            row = movement.row(self.section, open_t, r)
            if movement.layout.three_way_at(open_t, r):
                continue
            if row is not None and row.ns_pair and row.ew_pair:
                by_round.setdefault(self.event_round(r), []).append(row)
        for k, rows in by_round.items():
            first = rows[0]
            home, away = first.ns_pair, first.ew_pair
            switched = self.layout.knockout is None and (first.round - 1) % self.per_match % 2
            if switched:  # a knockout's home team stays NS in the open room
                home, away = away, home
            segments = []
            for row in rows:
                if {row.ns_pair, row.ew_pair} != {home, away}:
                    continue  # not this match's teams (check_movement names it)
                at_open = row.ns_pair == home
                seats = (open_t, closed_t) if at_open else (closed_t, open_t)
                segments.append(Segment(row.round, *seats, row.boards))
                self._key_of[(open_t, row.round)] = self._key_of[(closed_t, row.round)] = (i, k)
            self.plan[(i, k)] = PlannedMatch((i, k), home, away, tuple(segments))

    def _plan_three_ways(self, movement: Movement) -> None:
        """Each three-way's three matches, numbered after the pairs of tables', counted in
        its second round (when both rooms have played)."""
        first = len(movement.layout.matches)
        for j, way in enumerate(movement.layout.three_ways):
            k = self.event_round(way.round + 1)
            for n, (home, away, (ns_t, ns_r), (ew_t, ew_r)) in enumerate(way.matches()):
                key = (first + 3 * j + n, k)
                row = movement.row(self.section, ns_t, ns_r)
                boards = row.boards if row is not None else ()
                segment = Segment(ns_r, ns_t, ew_t, boards, ew_r)
                self._key_of[(ns_t, ns_r)] = self._key_of[(ew_t, ew_r)] = key
                self.plan[key] = PlannedMatch(key, home, away, (segment,))

    # -- matches ---------------------------------------------------------------------------
    def event_round(self, rnd: int) -> int:
        """The event round (match) a movement round belongs to (a knockout's: its plan's)."""
        if self.layout.knockout is not None:
            return self.layout.knockout.event_round(rnd)
        return (rnd - 1) // self.per_match + 1

    def first_round(self, k: int) -> int:
        """The first movement round of event round ``k``."""
        if self.layout.knockout is not None:
            return self.layout.knockout.first_round(k)
        return (k - 1) * self.per_match + 1

    def key_of(self, table: int, rnd: int) -> MatchKey | None:
        """The match table ``table`` plays in movement round ``rnd``."""
        return self._key_of.get((table, rnd))

    def other_room(self, table: int, rnd: int) -> tuple[int, int] | None:
        """The (table, movement round) where the other room of ``table``'s match in round
        ``rnd`` plays the same boards."""
        key = self._key_of.get((table, rnd))
        m = self.plan.get(key) if key is not None else None
        rooms = (s.other_room(table, rnd) for s in m.segments) if m is not None else ()
        return next((r for r in rooms if r is not None), None)

    def match_of(self, team: int, rnd: int) -> MatchKey | None:
        """The match a team plays in the event round of movement round ``rnd`` (in a
        three-way, the one where it sits NS in that round)."""
        table = self._ns_table.get((team, rnd))
        key = self.key_of(table, rnd) if table is not None else None
        if key is not None:
            return key
        k = self.event_round(rnd)
        return next(
            (m.key for m in self.plan.values() if m.key[1] == k and team in (m.home, m.away)),
            None,
        )

    def scale(self, k: int) -> VPScale:
        name = self.rules.scale_name(k, self.default_scale)
        if name not in self._scales:
            self._scales[name] = load_scale(name)
        return self._scales[name]

    def score(
        self, key: MatchKey, ns_score: NSScore, penalties: Mapping[int, Fraction] | None = None
    ) -> PlayedMatch | None:
        """The match over every board with a result (or an adjusted score) in both rooms in
        all its segments (None before the first), with its carry-over and the IMP
        ``penalties`` per team; a knockout's match is never in VPs (its three-ways are: 000)."""
        m = self.plan.get(key)
        if m is None:
            return None
        boards: list[TeamBoard] = []
        seen: set[int] = set()
        for seg in m.segments:
            for b in seg.boards:
                home_ns = ns_score(seg.home_ns_table, seg.round, b)
                home_ew = ns_score(seg.home_ew_table, seg.home_ew_round, b)
                if home_ns is None or home_ew is None or b in seen:
                    continue
                seen.add(b)
                if isinstance(home_ns, int) and isinstance(home_ew, int):
                    boards.append(TeamBoard(b, home_ns, home_ew))
                else:  # an adjusted score in a room: Law 86
                    assigned = self.rules.board_imps(b, home_ns, home_ew)
                    boards.append(TeamBoard(b, assigned_imps=assigned))
        if not boards:
            return None
        k = key[1]
        first = m.segments[0]  # a three-way's: home's match of round N, away's of N+1
        k_home, k_away = (self.event_round(first.round), k) if first.ew_round else (k, k)
        co, ko = self.rules.carry_over, self.layout.knockout
        seed_home, seed_away = co.seed_imps(m.home, m.away)
        if ko is not None:  # the bracket's carry-over, fixed when the round was published
            seed_home, seed_away = seed_home + ko.carry(m.home, k), seed_away + ko.carry(m.away, k)
        pen = penalties or {}
        result = score_match(
            boards,
            scale=None if ko is not None and not first.ew_round else self.scale(k),
            home_carry_over=seed_home + co.fixed(m.home, k_home),
            away_carry_over=seed_away + co.fixed(m.away, k_away),
            home_penalty=pen.get(m.home, Fraction(0)),
            away_penalty=pen.get(m.away, Fraction(0)),
        )
        return PlayedMatch(m.home, m.away, result)

    def _penalised(self, p: TeamPenalty) -> MatchKey | None:
        """The match an IMP penalty falls in: the one played at its table in its round, if
        the paying team plays it there, else the team's match of the round."""
        assert p.round is not None
        at = self.key_of(p.table, p.round) if p.table else None
        if at is not None and p.team in (self.plan[at].home, self.plan[at].away):
            return at
        return self.match_of(p.team, p.round)

    def imp_penalties(
        self, penalties: Iterable[TeamPenalty]
    ) -> dict[MatchKey, dict[int, Fraction]]:
        """IMP penalties by the match they fall in (a team with no match in the penalty's
        round has none to lose them from: left out)."""
        out: dict[MatchKey, dict[int, Fraction]] = {}
        for p in penalties:
            key = self._penalised(p) if p.unit == "IMP" and p.round else None
            if key is not None:
                mine = out.setdefault(key, {})
                mine[p.team] = mine.get(p.team, Fraction(0)) + p.amount
        return out

    # -- VPs outside matches ---------------------------------------------------------------
    def vp_adjustments(
        self,
        matches: Mapping[MatchKey, PlayedMatch],
        penalties: Iterable[TeamPenalty] = (),
        *,
        byes: bool = True,
    ) -> dict[Hashable, Fraction]:
        """Each team's VPs beyond its matches: VPs carried from an earlier stage, byes in
        the rounds reached so far (unless ``byes`` is False: a draw counts them itself),
        late joiners' assigned VPs, less its VP penalties."""
        vp_pen = [p for p in penalties if p.unit == "VP"]
        reached = max((k for _, k in matches), default=0)
        out: dict[Hashable, Fraction] = {}

        def add(team: int, vp: Fraction) -> None:
            out[team] = out.get(team, Fraction(0)) + vp

        for team, vp in self.rules.carry_over.carried_vp().items():
            add(team, vp)
        for team, vp in self._bye_vps(matches, reached) if byes else ():
            add(team, vp)
        for team, vp in self._joiner_vps(matches, reached, vp_pen):
            add(team, vp)
        for p in vp_pen:
            add(p.team, -p.amount)
        for way in self.layout.three_ways if byes else ():  # its matches count in its
            if self.event_round(way.round) <= reached:  # second round: its teams are in
                for team in way.teams:  # the standings from its first ([MENDS] #25); a
                    add(team, Fraction(0))  # draw lists its own teams
        return out  # a bye worth 0 VP still puts its team in the standings

    def byes(self, reached: int) -> list[tuple[int, int]]:
        """(team, event round) of each bye in rounds 1 … ``reached`` whose matches are
        known: a team of the section with no match there, from its first round on, until
        it withdrew (D19)."""
        return [
            (t, k)
            for k in sorted(self.known)
            if k <= reached
            for t in self.teams
            if t not in self.playing[k]
            and self.rules.first_round(t) <= k
            and self.layout.plays(t, self.first_round(k))
        ]

    def bye_vp(self, matches: Mapping[MatchKey, PlayedMatch], team: int) -> Fraction:
        """What a bye of ``team`` scores now by the event's rule (0 without one)."""
        rule = self.rules.bye
        if rule is None:
            return Fraction(0)
        own = _own_vps(matches.values(), team)
        average = sum(own, Fraction(0)) / len(own) if own else rule.amount
        if rule.rule == "fixed":
            return rule.amount
        return average if rule.rule == "own_average" else max(rule.amount, average)

    def _bye_vps(
        self, matches: Mapping[MatchKey, PlayedMatch], reached: int
    ) -> list[tuple[int, Fraction]]:
        return [(team, self.bye_vp(matches, team)) for team, _ in self.byes(reached)]

    def _joiner_vps(
        self, matches: Mapping[MatchKey, PlayedMatch], reached: int, vp_pen: list[TeamPenalty]
    ) -> list[tuple[int, Fraction]]:
        """Each late joiner's assigned VPs, once the round before its first is reached:
        its rule applied to the VPs of the teams already playing after that round."""
        out: list[tuple[int, Fraction]] = []
        for j in sorted(self.rules.late_joiners, key=lambda x: x.first_round):
            before = j.first_round - 1
            if reached < before:
                continue
            field = [t for t in self.teams if self.rules.first_round(t) <= before]
            totals = self._totals_after(matches, before, vp_pen, out)
            try:
                vp = joiner_vp(j.rule(), [totals.get(t, Fraction(0)) for t in field])
            except ScoringInputError:
                continue  # the field is smaller than the position asked (the TD fixes it)
            out += [(t, vp) for t in j.teams]
        return out

    def _totals_after(
        self,
        matches: Mapping[MatchKey, PlayedMatch],
        last: int,
        vp_pen: list[TeamPenalty],
        joined: list[tuple[int, Fraction]],
    ) -> dict[int, Fraction]:
        """Every team's VP after event round ``last``."""
        totals: dict[int, Fraction] = {}

        def add(team: int, vp: Fraction | None) -> None:
            totals[team] = totals.get(team, Fraction(0)) + (vp or 0)

        for (_, k), m in matches.items():
            if k <= last:
                add(int(str(m.home)), m.result.home_vp)
                add(int(str(m.away)), m.result.away_vp)
        for team, vp in self.rules.carry_over.carried_vp().items():
            add(team, vp)
        for team, vp in self._bye_vps({k: m for k, m in matches.items() if k[1] <= last}, last):
            add(team, vp)
        for team, vp in joined:
            add(team, vp)
        for p in vp_pen:
            if p.round is None or self.event_round(p.round) <= last:
                add(p.team, -p.amount)
        return totals


def _own_vps(matches: Iterable[PlayedMatch], team: int) -> list[Fraction]:
    out = []
    for m in matches:
        if m.home == team and m.result.home_vp is not None:
            out.append(m.result.home_vp)
        elif m.away == team and m.result.away_vp is not None:
            out.append(m.result.away_vp)
    return out
