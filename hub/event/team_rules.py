"""The event file's ``[rules.teams]`` table (decisions D2): what a team event sets beyond
the VP scale and the tie-break rule — carry-over, late joiners' assigned VPs, a VP scale per
stage, the VP for a bye, the IMPs of an adjusted score. Part of the one event-file schema
(``Rules.teams``); frozen values, any thread. Rounds here are the event's rounds
(matches): with ``segments`` S a match of S segments is one round.

Exact amounts (decisions D4) are written as numbers or as strings (``"1/3"``, ``"6.5"``);
a float is read as its decimal text, so ``0.1`` is exactly one tenth.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from hub.event.strict import Strict
from scoring.board import board_vulnerability
from scoring.imp_awards import ImpAwards
from scoring.imps import imps
from scoring.late_joiners import (
    AverageOfPositions,
    FixedVP,
    JoinerVP,
    VPOfPosition,
    VPPerMissedRound,
)
from scoring.law77 import score_ns
from scoring.traveller import Artificial
from scoring.vp_scale import BUILT_IN

RoomResult = int | Artificial
"""One room's result on a board: its NS score, or the director's adjusted score."""


def _exact(v: object) -> str:
    """An exact amount as text ``Fraction`` reads: 6.5, "6.5", "1/3" (never a bool)."""
    if isinstance(v, bool) or not isinstance(v, int | float | str):
        raise ValueError(f'{v!r} is not an amount: write a number or a fraction like "1/3"')
    text = str(v).strip()
    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(
            f'{v!r} is not an amount: write a number or a fraction like "1/3"'
        ) from None
    return text


Exact = Annotated[str, BeforeValidator(_exact)]
TeamNo = Annotated[int, Field(ge=1)]


def _scale_name(v: str) -> str:
    if v not in BUILT_IN and not v.endswith(".csv"):
        raise ValueError(f"{v!r} is neither {' nor '.join(BUILT_IN)} nor a .csv table file")
    return v


class StageScale(Strict):
    """The VP scale of rounds ``from_round`` … ``to_round`` (to the end when omitted). A
    frozen value, any thread."""

    from_round: int = Field(ge=1)
    to_round: int | None = Field(default=None, ge=1)
    scale: Annotated[str, AfterValidator(_scale_name)]

    @model_validator(mode="after")
    def _check(self) -> StageScale:
        if self.to_round is not None and self.to_round < self.from_round:
            raise ValueError(f"to_round {self.to_round} is before from_round {self.from_round}")
        return self

    def covers(self, rnd: int) -> bool:
        return self.from_round <= rnd and (self.to_round is None or rnd <= self.to_round)


class Bye(Strict):
    """A bye's VP (a team with no match in a round whose matches are known): ``fixed``, the
    ``vp`` given; ``own_average``, the team's average VP over the matches it has played (the
    pairs' rule of seed 002, "beräknas på det totala antalet ronder"; ``vp`` before it has
    played one); ``higher``, the higher of the two."""

    rule: Literal["fixed", "own_average", "higher"] = "fixed"
    vp: Exact = "0"

    @property
    def amount(self) -> Fraction:
        return Fraction(self.vp)


class LateJoiner(Strict):
    """Teams that start in ``first_round`` with assigned VPs, by exactly one rule:
    ``vp_of_position`` (seed 000: the VP of the 4th team after the round before),
    ``average_of_positions`` (seed 001: the average of the 3rd and 4th), ``fixed_vp`` (seed
    002, Chairman's Cup: exactly 30 VP), ``vp_per_missed_round`` (seed 002, SM Lag Veteran:
    16 VP for each round missed). A frozen value, any thread."""

    teams: list[TeamNo] = Field(min_length=1)
    first_round: int = Field(ge=2)
    vp_of_position: int | None = Field(default=None, ge=1)
    average_of_positions: list[Annotated[int, Field(ge=1)]] | None = Field(
        default=None, min_length=1
    )
    fixed_vp: Exact | None = None
    vp_per_missed_round: Exact | None = None

    @model_validator(mode="after")
    def _one_rule(self) -> LateJoiner:
        given = [
            k
            for k in ("vp_of_position", "average_of_positions", "fixed_vp", "vp_per_missed_round")
            if getattr(self, k) is not None
        ]
        if len(given) != 1:
            raise ValueError(
                "give exactly one of vp_of_position, average_of_positions, fixed_vp, "
                f"vp_per_missed_round (got {', '.join(given) or 'none'})"
            )
        if len(set(self.teams)) != len(self.teams):
            raise ValueError("a team is listed twice in teams")
        return self

    def rule(self) -> JoinerVP:
        """The rule as ``scoring.late_joiners`` computes it."""
        if self.vp_of_position is not None:
            return VPOfPosition(self.vp_of_position)
        if self.average_of_positions is not None:
            return AverageOfPositions(tuple(self.average_of_positions))
        if self.fixed_vp is not None:
            return FixedVP(Fraction(self.fixed_vp), self.first_round)
        assert self.vp_per_missed_round is not None
        return VPPerMissedRound(Fraction(self.vp_per_missed_round), self.first_round)


class FixedCarryOver(Strict):
    """IMPs a team starts its match of ``round`` with (seed 000: the bye to the final with
    a 6.5 IMP carry-over)."""

    team: TeamNo
    imps: Exact
    round: int = Field(default=1, ge=1)


class EarlierVP(Strict):
    team: TeamNo
    vp: Exact


class CarryOver(Strict):
    """Carry-over into this stage: ``higher_seed_imps`` in every match to the team higher in
    ``seeding`` (teams best first; seed 001: 0.1 IMP to the team placed higher in the
    Qualification Swiss); ``fixed_imps`` per team and round; ``vp_fraction`` of each team's
    ``earlier_vp`` (seed 001: 1/3 of the VP of the Qualification Swiss). A frozen value,
    any thread."""

    higher_seed_imps: Exact | None = None
    seeding: list[TeamNo] = Field(default_factory=list)
    fixed_imps: list[FixedCarryOver] = Field(default_factory=list)
    vp_fraction: Exact | None = None
    earlier_vp: list[EarlierVP] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> CarryOver:
        if len(set(self.seeding)) != len(self.seeding):
            raise ValueError("seeding lists a team twice")
        if self.higher_seed_imps is not None and len(self.seeding) < 2:
            raise ValueError("higher_seed_imps needs seeding: the teams, best first")
        if self.vp_fraction is not None and not self.earlier_vp:
            raise ValueError("vp_fraction needs earlier_vp: each team's VP of the earlier stage")
        if self.earlier_vp and self.vp_fraction is None:
            raise ValueError('earlier_vp needs vp_fraction: the share carried (e.g. "1/3")')
        seen = [e.team for e in self.earlier_vp]
        if len(set(seen)) != len(seen):
            raise ValueError("earlier_vp lists a team twice")
        keys = [(f.team, f.round) for f in self.fixed_imps]
        if len(set(keys)) != len(keys):
            raise ValueError("fixed_imps lists a team twice for one round")
        return self

    def seed_imps(self, home: int, away: int) -> tuple[Fraction, Fraction]:
        """The two teams' ``higher_seed_imps`` carry-over in their match (0, 0 when either
        is not seeded)."""
        if self.higher_seed_imps is None or home not in self.seeding or away not in self.seeding:
            return Fraction(0), Fraction(0)
        x = Fraction(self.higher_seed_imps)
        first = self.seeding.index(home) < self.seeding.index(away)
        return (x, Fraction(0)) if first else (Fraction(0), x)

    def fixed(self, team: int, rnd: int) -> Fraction:
        return sum(
            (Fraction(f.imps) for f in self.fixed_imps if f.team == team and f.round == rnd),
            Fraction(0),
        )

    def carried_vp(self) -> dict[int, Fraction]:
        if self.vp_fraction is None:
            return {}
        share = Fraction(self.vp_fraction)
        return {e.team: Fraction(e.vp) * share for e in self.earlier_vp}


class TeamRules(Strict):
    """``[rules.teams]``: the team event's own keys (docs/scoring.md, "Team events in the
    event file"). A frozen value, any thread."""

    vp_scales: list[StageScale] = Field(default_factory=list)
    bye: Bye | None = None
    late_joiners: list[LateJoiner] = Field(default_factory=list)
    carry_over: CarryOver = Field(default_factory=CarryOver)
    assigned_imps: Exact = "3"  # average-plus in IMPs (Law 86A: 3 unless the event says)

    @model_validator(mode="after")
    def _check(self) -> TeamRules:
        if Fraction(self.assigned_imps) < 0:
            raise ValueError(f"assigned_imps is 0 or more (average-plus), not {self.assigned_imps}")
        stages = sorted(self.vp_scales, key=lambda s: s.from_round)
        for a, b in pairwise(stages):
            if a.to_round is None or a.to_round >= b.from_round:
                raise ValueError(
                    f"vp_scales: the stage from round {a.from_round} overlaps the one from "
                    f"round {b.from_round}"
                )
        joined = [t for j in self.late_joiners for t in j.teams]
        dup = next((t for t in joined if joined.count(t) > 1), None)
        if dup is not None:
            raise ValueError(f"late_joiners: team {dup} joins twice")
        return self

    def scale_name(self, rnd: int, default: str) -> str:
        """The VP scale of round ``rnd``: its stage's, else the event's ``vp_scale``."""
        return next((s.scale for s in self.vp_scales if s.covers(rnd)), default)

    def first_round(self, team: int) -> int:
        """The round a team starts in (1 unless it is a late joiner)."""
        return next((j.first_round for j in self.late_joiners if team in j.teams), 1)

    def imp_awards(self) -> ImpAwards:
        """Artificial scores in IMPs: A+ = +``assigned_imps``, A = 0, A− = −``assigned_imps``;
        a percentage linearly, ``assigned_imps`` for every 10 % from 50 % (60 % = A+)."""
        x = Fraction(self.assigned_imps)
        return ImpAwards(x, Fraction(0), -x, x)

    def board_imps(self, board: int, home_ns: RoomResult, home_ew: RoomResult) -> Fraction:
        """The home team's IMPs on a board with the room where it sits NS and the one where
        it sits EW (docs/scoring.md, "Assigned scores"). Scores and weighted scores (Law
        12C1(c)) are compared, weighted: Σ wᵢ·wⱼ·IMP(NSᵢ − NSⱼ). An artificial score (Law
        12C2) in a room replaces the comparison: the room gives the home team half its own
        side's award less half the other side's (Law 86A ±``assigned_imps``; unequal awards
        averaged as Law 86B says), and with both rooms artificial the two rooms add up."""
        rooms = (_versions(board, home_ns), _versions(board, home_ew))
        if rooms[0] is not None and rooms[1] is not None:
            return sum(
                (wi * wj * imps(i - j) for wi, i in rooms[0] for wj, j in rooms[1]), Fraction(0)
            )
        awards = self.imp_awards()
        total = Fraction(0)
        for room, home_sits_ns in ((home_ns, True), (home_ew, False)):
            if isinstance(room, Artificial) and not room.weighted:
                home, away = (room.ns, room.ew) if home_sits_ns else (room.ew, room.ns)
                total += (awards.imps(home) - awards.imps(away)) / 2
        return total


def _versions(board: int, room: RoomResult) -> list[tuple[Fraction, int]] | None:
    """A room's NS scores with their weights (one of weight 1 for a score), None for an
    artificial score (nothing to compare)."""
    if isinstance(room, int):
        return [(Fraction(1), room)]
    if room.weighted:
        vul = board_vulnerability(board)
        return [(p.weight, score_ns(p.play, vul)) for p in room.parts]
    return None
