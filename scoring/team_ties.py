"""Team places by VP and a tie-break rule: the WBF procedures of seed 001 and the seeds'
chains, written as data.

A rule is a chain of named steps (criteria of ``scoring.team_tie_criteria``, then maybe an
end: ``lot``, ``play_off``, ``sudden_death``), one chain per size of the tied group where the
rule has several (WBF: two teams, three teams, four or more). A step splits the group by its
values; a part still level goes on with the next step, except that a part in a smaller size
class starts that class's chain from its top (seed 001: "broken in accordance with the
previous section"). A chain that runs out, ends in a play-off or sudden death, needs a lot
drawn without a recorded seed, or lacks the data a step needs leaves the teams sharing the
place with a ``Tie`` saying why: the program never invents a place.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.lot import draw_lots
from scoring.team_tie_criteria import CRITERIA, Field, MissingData, TeamMatch
from scoring.tie_break import split_by_value

LOT, PLAY_OFF, SUDDEN_DEATH = "lot", "play_off", "sudden_death"
ENDS = {LOT: "lot", PLAY_OFF: "play-off", SUDDEN_DEATH: "sudden death"}


@dataclass(frozen=True, slots=True)
class Tie:
    """Why teams level on VP still share a place: ``"play-off"``, ``"sudden death"``,
    ``"lot"`` (no seed recorded), ``"shared"`` (the chain ran out) or ``"missing IMPs"`` …"""

    unresolved: str


@dataclass(frozen=True, slots=True)
class TieBreakRule:
    """A named rule: ``chains`` maps the smallest group size of a class to its steps."""

    name: str
    source: str
    chains: tuple[tuple[int, tuple[str, ...]], ...]

    def __post_init__(self) -> None:
        for _size, steps in self.chains:
            for i, step in enumerate(steps):
                if step in ENDS:
                    if i != len(steps) - 1:
                        raise ValueError(f"{self.name}: {step!r} must end its chain")
                elif step not in CRITERIA:
                    raise ValueError(
                        f"{self.name}: unknown tie-break {step!r}; known are "
                        f"{', '.join([*CRITERIA, *ENDS])}"
                    )

    def chain_for(self, size: int) -> tuple[int, tuple[str, ...]]:
        """The class (its smallest size) and steps for a tied group of ``size`` teams."""
        fitting = [c for c in self.chains if c[0] <= size] or [min(self.chains)]
        return max(fitting)


@dataclass(frozen=True, slots=True)
class TeamPlace:
    """A team's place: ``decided_by`` names the step that separated it; ``tie`` is set when
    it shares the place."""

    team: Hashable
    vp: Fraction
    place: int
    decided_by: str | None = None
    tie: Tie | None = None

    @property
    def shared(self) -> bool:
        return self.tie is not None

    @property
    def rank(self) -> str:
        """``3=`` for a shared third place."""
        return f"{self.place}=" if self.shared else str(self.place)


def _rule(name: str, source: str, *chains: tuple[int, tuple[str, ...]]) -> TieBreakRule:
    return TieBreakRule(name, source, tuple(chains))


WBF = _rule(
    "wbf",
    "seed 001 XII, the WBF tie-breaking procedures",
    # A: two teams
    (2, ("imp_quotient", "h2h_imps", "h2h_total_points", "total_point_quotient", SUDDEN_DEATH)),
    # B: three teams (B.2-B.4 on the VPs of their matches, B.5-B.6 net among them)
    (
        3,
        (
            "imp_quotient",
            "h2h_vp_beat_all",
            "h2h_vp_beat_all_but_one_tie",
            "h2h_vp_lost_to_all",
            "h2h_imps",
            "h2h_total_points",
            "total_point_quotient",
            SUDDEN_DEATH,
        ),
    ),
    # C: four teams or more (C.2 is one step: with more than three left after it, C.3)
    (4, ("imp_quotient", "h2h_vp_unbeaten", "total_point_quotient", SUDDEN_DEATH)),
)
# seed 000 6-1, during the Swiss: IMP quotient, total-point quotient, then a draw
YEH_SWISS = _rule(
    "yeh_swiss",
    "seed 000 6-1 (during the event)",
    (2, ("imp_quotient", "total_point_quotient", LOT)),
)
# seed 000 6-1, after round 10: (a)-(e)
YEH_SWISS_FINAL = _rule(
    "yeh_swiss_final",
    "seed 000 6-1 (after round 10)",
    (
        2,
        (
            "imp_quotient",
            "h2h_imps_won",
            "h2h_points_won",
            "total_point_quotient",
            PLAY_OFF,
        ),
    ),
)
# seed 004 "Särskiljning inom ett kvalheat" and "inom DM-finalen"
UBF_DM_LAG = _rule(
    "ubf_dm_lag",
    "seed 004 (DM Lag: kvalheat and final)",
    (2, ("imp_quotient", "h2h_imps_won", "h2h_boards_won", "h2h_points_won", LOT)),
)
# seed 002 "Särskiljning, Gröna Hissen": Swiss points, then IMP quotient
GRONA_HISSEN = _rule(
    "grona_hissen",
    "seed 002 (Chairman's Cup, Gröna Hissen)",
    (2, ("swiss_points", "imp_quotient")),
)
RULES: dict[str, TieBreakRule] = {
    r.name: r for r in (WBF, YEH_SWISS, YEH_SWISS_FINAL, UBF_DM_LAG, GRONA_HISSEN)
}


def rule_from_names(names: Sequence[str]) -> TieBreakRule:
    """A rule by name (``wbf`` …) or a chain of step names (decisions D2's grammar)."""
    if len(names) == 1 and names[0] in RULES:
        return RULES[names[0]]
    for n in names:
        if n in RULES:
            raise ValueError(f"{n!r} is a whole rule: give it alone")
    return _rule("+".join(names) or "vp", "the event's chain", (2, tuple(names)))


def place_teams(
    matches: Iterable[TeamMatch],
    rule: TieBreakRule | None = None,
    *,
    teams: Sequence[Hashable] = (),
    vp_adjustments: Mapping[Hashable, Fraction] | None = None,
    lot_seed: int | None = None,
) -> list[TeamPlace]:
    """Every team by VP (matches, byes and ``vp_adjustments``), ties by ``rule``.

    ``teams`` lists the entrants (a team without a match has 0 VP) and orders teams that
    share a place; a ``lot`` is drawn only with a recorded ``lot_seed`` (decisions D19).
    """
    field = Field(matches, vp_adjustments)
    order = list(dict.fromkeys([*teams, *field.vp]))
    vp = {t: field.vp.get(t, Fraction(0)) for t in order}
    rule = rule or rule_from_names(())
    out: list[TeamPlace] = []

    def share(group: list[Hashable], why: str, decided: str | None) -> None:
        place = len(out) + 1
        for t in sorted(group, key=order.index):
            out.append(TeamPlace(t, vp[t], place, decided, Tie(why)))

    def resolve(group: list[Hashable], size_class: int, step: int, decided: str | None) -> None:
        if len(group) == 1:
            out.append(TeamPlace(group[0], vp[group[0]], len(out) + 1, decided))
            return
        cls, steps = rule.chain_for(len(group))
        if cls != size_class:
            step = 0
        if step >= len(steps):
            share(group, "shared", decided)
            return
        name = steps[step]
        if name == LOT and lot_seed is not None:
            for t in draw_lots(group, lot_seed, key=order.index):
                out.append(TeamPlace(t, vp[t], len(out) + 1, LOT))
            return
        if name in ENDS:
            share(group, ENDS[name], decided)
            return
        try:
            values = CRITERIA[name](group, field)
        except MissingData as e:
            share(group, f"missing {e.what}", decided)
            return
        parts = [group] if values is None else split_by_value(group, values)
        for part in parts:
            resolve(part, cls, step + 1, name if len(parts) > 1 else decided)

    for level in split_by_value(order, vp):
        resolve(level, 0, 0, None)
    return out
