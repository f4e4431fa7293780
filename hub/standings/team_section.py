"""How a teams section is scored: the one place the live view (``TeamsLive``) and the batch
rebuild (``teams_view``) both ask, so the two always agree.

- A match is one pair of tables (open, closed) over the movement rounds of one event round:
  with ``segments`` S, rounds (k−1)·S+1 … k·S are match k (seed 004: 24 boards in two
  halves). The seating switches between segments, so on each board the home team's net is
  the NS score where it sits NS less the NS score where it sits EW; IMPs carry across the
  segments and the VPs are worked out once, on the whole match, with the scale of its
  round (``[rules.teams] vp_scales``, else ``rules.vp_scale``).
- Carry-over in IMPs (``higher_seed_imps``, ``fixed_imps``) and the TD's IMP penalties of
  the match go into the match before its VPs.
- VPs outside matches: byes, late joiners' assigned VPs, VPs carried from an earlier
  stage, VP penalties (``vp_adjustments``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Layout, Movement, MovementRow
from hub.event.vp_table_file import load_scale
from scoring.draw.methods import DEFAULT_RULE
from scoring.errors import ScoringInputError
from scoring.late_joiners import joiner_vp
from scoring.team_match import TeamBoard, score_match
from scoring.team_standings import PlayedMatch
from scoring.team_ties import TieBreakRule, rule_from_names
from scoring.vp_scale import VPScale

MatchKey = tuple[int, int]  # the match's pair of tables (index in layout.matches), event round
NSScore = Callable[[int, int, int], int | None]  # table, movement round, board → NS score


def tie_rule(event: EventFile, layout: Layout) -> TieBreakRule:
    """The section's team tie-break rule: the event's ``tie_breaks``, else a drawn
    event's own method's (a Swiss is ranked as it is drawn: seed 000's chain), else VP
    alone."""
    names = event.rules.tie_breaks
    if names or not layout.draw:
        return rule_from_names(names)
    return DEFAULT_RULE[layout.draw]


@dataclass(frozen=True, slots=True)
class Segment:
    """One segment of a match: its movement round, the table where the home team sits NS,
    the one where it sits EW, and the boards."""

    round: int
    home_ns_table: int
    home_ew_table: int
    boards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlannedMatch:
    key: MatchKey
    home: int
    away: int
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class TeamPenalty:
    """One paying team's share of a confirmed penalty (``round``: the movement round)."""

    team: int
    unit: str  # "VP" or "IMP"
    amount: Fraction
    round: int | None


PAYERS = {"NS": (0,), "EW": (1,), "both": (0, 1), "shared": (0, 1)}


def team_penalties(penalty: Mapping[str, Any]) -> list[TeamPenalty]:
    """Who pays a confirmed penalty and how much (decisions D10: the TD sets the payer;
    ``shared`` halves it); [] for a unit team standings do not carry (warnings, the TD's
    own decisions, percent of a top) or an IMP penalty that names no round."""
    unit = penalty.get("unit")
    rnd = penalty.get("round")
    if unit not in ("VP", "IMP") or (unit == "IMP" and not rnd):
        return []
    payer = penalty.get("payer") or ""
    share = Fraction(1, 2) if payer == "shared" else Fraction(1)
    try:
        amount = Fraction(str(penalty.get("amount"))) * share
    except (ValueError, ZeroDivisionError):
        return []  # no amount to take (the store keeps what the scale proposed)
    sides = penalty.get("contestants") or (None, None)
    out = []
    for i in PAYERS.get(payer, ()):
        team = sides[i]
        if team:
            out.append(TeamPenalty(int(team), str(unit), amount, rnd))
    return out


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
        self.playing: dict[int, set[int]] = {}
        for m in self.plan.values():
            self.playing.setdefault(m.key[1], set()).update((m.home, m.away))
        self.known = {
            k for k in self.playing if not movement.layout.undrawn((k - 1) * self.per_match + 1)
        }
        listed = {
            t.number
            for s in event.sessions
            for sec in s.sections
            if sec.letter == section
            for t in sec.teams
        }
        self.teams = sorted(listed | {t for ts in self.playing.values() for t in ts})

    def _plan_matches(self, movement: Movement, i: int, tables: tuple[int, int]) -> None:
        """The matches at the ``i``-th pair of tables, one per event round: the home team
        is the open room's NS team of the first segment (EW in a switched segment)."""
        open_t, closed_t = tables
        by_round: dict[int, list[MovementRow]] = {}
        for r in range(1, movement.rounds + 1):
            row = movement.row(self.section, open_t, r)
            if row is not None and row.ns_pair and row.ew_pair:
                by_round.setdefault(self.event_round(r), []).append(row)
        for k, rows in by_round.items():
            first = rows[0]
            home, away = first.ns_pair, first.ew_pair
            if (first.round - 1) % self.per_match % 2 == 1:  # a switched segment
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

    # -- matches ---------------------------------------------------------------------------
    def event_round(self, rnd: int) -> int:
        """The event round (match) a movement round belongs to."""
        return (rnd - 1) // self.per_match + 1

    def key_of(self, table: int, rnd: int) -> MatchKey | None:
        """The match table ``table`` plays in movement round ``rnd``."""
        return self._key_of.get((table, rnd))

    def match_of(self, team: int, rnd: int) -> MatchKey | None:
        """The match a team plays in the event round of movement round ``rnd``."""
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
        """The match over every board both rooms have played in all its segments (None
        before the first), with its carry-over and the IMP ``penalties`` per team."""
        m = self.plan.get(key)
        if m is None:
            return None
        boards: list[TeamBoard] = []
        seen: set[int] = set()
        for seg in m.segments:
            for b in seg.boards:
                home_ns = ns_score(seg.home_ns_table, seg.round, b)
                home_ew = ns_score(seg.home_ew_table, seg.round, b)
                if home_ns is not None and home_ew is not None and b not in seen:
                    seen.add(b)
                    boards.append(TeamBoard(b, home_ns, home_ew))
        if not boards:
            return None
        k = key[1]
        co = self.rules.carry_over
        seed_home, seed_away = co.seed_imps(m.home, m.away)
        pen = penalties or {}
        result = score_match(
            boards,
            scale=self.scale(k),
            home_carry_over=seed_home + co.fixed(m.home, k),
            away_carry_over=seed_away + co.fixed(m.away, k),
            home_penalty=pen.get(m.home, Fraction(0)),
            away_penalty=pen.get(m.away, Fraction(0)),
        )
        return PlayedMatch(m.home, m.away, result)

    def imp_penalties(
        self, penalties: Iterable[TeamPenalty]
    ) -> dict[MatchKey, dict[int, Fraction]]:
        """IMP penalties by the match they fall in (a team with no match in the penalty's
        round has none to lose them from: left out)."""
        out: dict[MatchKey, dict[int, Fraction]] = {}
        for p in penalties:
            key = self.match_of(p.team, p.round) if p.unit == "IMP" and p.round else None
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
            and self.layout.plays(t, (k - 1) * self.per_match + 1)
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
        if self.rules.bye is None:
            return []
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
