"""The brackets of the seeds as data (issue [KNOCKOUT]): single elimination with a match
for third place (seed 003), seed 000's double elimination of 16 with its three-ways and the
bye to the final, and a stepladder play-off with a losers' ladder (JFR style, as in a
Polish III liga play-off).

Each returns a ``Bracket`` (``scoring.knockout.bracket``) that ``bracket_check`` accepts
and ``routing.follow`` plays through. Place ranges are written for the full bracket; the
routing compresses them when fewer teams enter (seed 003 §11.4: the missing teams are the
highest numbers, their opponents go through).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import Bracket, CarryKind, CarryOver, Match, Slot
from scoring.knockout.ko_match import TieRule
from scoring.knockout.seeding import standard_order

# seed 000 §6-2 (knockout) and §6-3 (final and play-off)
SEED000_KNOCKOUT_TIE = ("total_points", "boards_won", "lot")
SEED000_FINAL_TIE = ("total_points", "boards_won", "sudden_death")

_ROUND_BY_TEAMS = {2: "F", 4: "SF", 8: "QF"}


def _places(first: int, last: int) -> str:
    """A final place ("3") or a shared range ("9-16") as bracket files write it."""
    return str(first) if first == last else f"{first}-{last}"


def _positive(field: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScoringInputError(field, f"{field} must be a whole number of at least 1")
    return value


def _tie(tie: Sequence[str]) -> tuple[str, ...]:
    rules = tuple(tie)
    known = [r.value for r in TieRule]
    if not rules or not all(r in known for r in rules):
        raise ScoringInputError("tie", f"tie must name one or more of {', '.join(known)}")
    return rules


def _round_names(size: int, third_place: bool, names: Sequence[str] | None) -> tuple[str, ...]:
    count = size.bit_length() - 1
    if names is None:
        return tuple(_ROUND_BY_TEAMS.get(size >> r, f"R{size >> r}") for r in range(count))
    given = tuple(names)
    if len(given) != count or len(set(given)) != count or not all(given):
        raise ScoringInputError(
            "names",
            f"names must give {count} different round names, the first round to the final",
        )
    if third_place and "3rd" in given:
        raise ScoringInputError("names", "3rd names the third-place match: choose another")
    return given


def single_elimination(
    size: int,
    *,
    segments: int = 2,
    final_segments: int = 3,
    boards_per_segment: int = 16,
    third_place: bool = True,
    tie: Sequence[str] = ("extra_set",),
    names: Sequence[str] | None = None,
    name: str = "",
) -> Bracket:
    """Seed 003's knockout for ``size`` = 2^k teams (§9: 8, 16, 32, then 2^k).

    The first round pairs the numbers by the standard bracket placing (1 v size, then
    the halves mirrored: 1-32, 16-17, 8-25, 9-24 …), the lower number first, i.e. at home
    (§12.2: the team listed first is home); a later match has the winner of the upper
    match first. Matches are named ``<round>-<k>`` top to bottom (``QF-3``), the final
    ``F``. Every match is ``segments`` × ``boards_per_segment`` boards, the final
    ``final_segments`` (§12.1: 32 boards, the final 48); the match for third place (§13.2:
    the semi-final losers) is ``3rd``, played in the final's round and as long as the other
    matches. Losers of a round share the places below the teams still in (R32: 17-32).
    ``tie`` is every match's tie rule (§12.5: another set of 4 boards until decided).
    ``names`` renames the rounds, first round to final (default R32, R16, QF, SF, F).
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 4 or size & (size - 1):
        raise ScoringInputError("size", "size must be a power of two, at least 4 (8, 16, 32 …)")
    segments = _positive("segments", segments)
    final_segments = _positive("final_segments", final_segments)
    boards_per_segment = _positive("boards_per_segment", boards_per_segment)
    rules = _tie(tie)
    rounds = _round_names(size, third_place, names)

    order = standard_order(size)
    pairs = [tuple(sorted(order[i : i + 2])) for i in range(0, size, 2)]
    feeds: list[tuple[Slot, ...]] = [(Slot.by_rank(a), Slot.by_rank(b)) for a, b in pairs]
    matches: list[Match] = []
    teams = size
    for index, rnd in enumerate(rounds):
        last = index == len(rounds) - 1
        names_here = [rnd] if last else [f"{rnd}-{k}" for k in range(1, len(feeds) + 1)]
        semi_final = index == len(rounds) - 2
        loser_place = "" if semi_final and third_place else _places(teams // 2 + 1, teams)
        for match_name, slots in zip(names_here, feeds, strict=True):
            matches.append(
                Match(
                    name=match_name,
                    round=rnd,
                    slots=slots,
                    segments=final_segments if last else segments,
                    boards_per_segment=boards_per_segment,
                    tie=rules,
                    places=("1", "2") if last else ("", loser_place),
                )
            )
        feeds = [
            (Slot.winner(names_here[i]), Slot.winner(names_here[i + 1]))
            for i in range(0, len(names_here) - 1, 2)
        ]
        teams //= 2
    if third_place:
        semis = [m.name for m in matches if m.round == rounds[-2]]
        matches.append(
            Match(
                name="3rd",
                round=rounds[-1],
                slots=(Slot.loser(semis[0]), Slot.loser(semis[1])),
                segments=segments,
                boards_per_segment=boards_per_segment,
                tie=rules,
                places=("3", "4"),
            )
        )
    return Bracket(
        name=name or f"Single elimination, {size} teams",
        entries=size,
        rounds=rounds,
        matches=tuple(matches),
    )


def double_elimination_16(
    *,
    carry_over: Fraction = Fraction(13, 2),
    name: str = "",
    segments: int = 2,
    final_segments: int = 3,
    boards_per_segment: int = 16,
) -> Bracket:
    """Seed 000 §4A "Knockout Stage" and "Final and Third-Place Playoff": 16 teams.

    Ranks 1-8 start in the upper bracket (a loss drops a team to the lower), ranks 9-16
    in the lower (a loss puts it out). Rounds ``M1``-``M4`` are the seed's Match 1-4,
    each 32 boards (2 × 16); a three-way is two segments of 16, one against each other
    team, its winner the team winning both its matches, else on total VPs.

    - M1: upper ``U1-1`` 1 v 8, ``U1-2`` 4 v 5, ``U1-3`` 2 v 7, ``U1-4`` 3 v 6 (the
      standard placing: the seed does not give the pairing); lower ``L1-1`` 9 v 16,
      ``L1-2`` 12 v 13, ``L1-3`` 10 v 15, ``L1-4`` 11 v 14, losers 13-16.
    - M2: upper ``U2-1`` (U1-1 v U1-2 winners), ``U2-2`` (U1-3 v U1-4); lower ``L2-k``
      the loser of U1-k v the winner of L1-k (expected 8 v 9, 5 v 12, 7 v 10, 6 v 11),
      losers 9-12.
    - M3: upper final ``U3``: its winner, unbeaten, has a bye to the final with
      ``carry_over`` IMPs (6.5); lower three-ways ``L3-1`` (the loser of U2-1 and the
      winners of L2-3 and L2-4) and ``L3-2`` (the loser of U2-2, the winners of L2-1 and
      L2-2), crossed so that no two of a three-way have met; one winner each, the other
      four 5-8.
    - M4: the three-way ``M4``: the loser of U3 and the winners of L3-1 and L3-2; its
      winner plays the final, its second and third the third-place play-off.
    - ``F`` (the unbeaten team first, with the carry-over) and ``3rd``: 48 boards (3 ×
      16), places 1-2 and 3-4, ties §6-3 (then 2-board sudden death); earlier matches
      §6-2 (total points, boards won, lot).

    ``segments``, ``final_segments`` and ``boards_per_segment`` change the lengths (2, 3
    and 16 in the seed).
    """
    segments = _positive("segments", segments)
    final_segments = _positive("final_segments", final_segments)
    boards_per_segment = _positive("boards_per_segment", boards_per_segment)

    def _ko(name: str, rnd: str, slots: tuple[Slot, ...], places: tuple[str, ...]) -> Match:
        """A knockout match (32 boards in the seed); with three slots a three-way."""
        return Match(name, rnd, slots, segments, boards_per_segment, tie=SEED000_KNOCKOUT_TIE,
                     places=places)  # fmt: skip

    if not isinstance(carry_over, (int, Fraction)) or isinstance(carry_over, bool):
        raise ScoringInputError("carry_over", "carry_over must be exact IMPs (a Fraction)")
    if carry_over < 0:
        raise ScoringInputError("carry_over", "carry_over must be 0 or more IMPs")
    imps = Fraction(carry_over)
    bonus = CarryOver(CarryKind.FIXED, imps=imps, slot=0) if imps else CarryOver()
    first = ((1, 8), (4, 5), (2, 7), (3, 6))
    lower = ((9, 16), (12, 13), (10, 15), (11, 14))
    w, lo, rank = Slot.winner, Slot.loser, Slot.by_rank
    matches = [
        _ko(f"U1-{k}", "M1", (rank(a), rank(b)), ("", "")) for k, (a, b) in enumerate(first, 1)
    ]
    matches += [
        _ko(f"L1-{k}", "M1", (rank(a), rank(b)), ("", "13-16")) for k, (a, b) in enumerate(lower, 1)
    ]
    matches += [
        _ko("U2-1", "M2", (w("U1-1"), w("U1-2")), ("", "")),
        _ko("U2-2", "M2", (w("U1-3"), w("U1-4")), ("", "")),
    ]
    matches += [
        _ko(f"L2-{k}", "M2", (lo(f"U1-{k}"), w(f"L1-{k}")), ("", "9-12")) for k in range(1, 5)
    ]
    matches += [
        _ko("U3", "M3", (w("U2-1"), w("U2-2")), ("", "")),
        _ko("L3-1", "M3", (lo("U2-1"), w("L2-3"), w("L2-4")), ("", "5-8", "5-8")),
        _ko("L3-2", "M3", (lo("U2-2"), w("L2-1"), w("L2-2")), ("", "5-8", "5-8")),
        _ko("M4", "M4", (lo("U3"), w("L3-1"), w("L3-2")), ("", "", "")),
    ]
    matches += [
        Match(
            "F",
            "F",
            (w("U3"), w("M4")),
            final_segments,
            boards_per_segment,
            bonus,
            SEED000_FINAL_TIE,
            ("1", "2"),
        ),
        Match(
            "3rd",
            "F",
            (Slot.placed("M4", 2), Slot.placed("M4", 3)),
            final_segments,
            boards_per_segment,
            tie=SEED000_FINAL_TIE,
            places=("3", "4"),
        ),
    ]
    return Bracket(
        name=name or "Double elimination, 16 teams (seed 000)",
        entries=16,
        rounds=("M1", "M2", "M3", "M4", "F"),
        matches=tuple(matches),
    )


def stepladder(
    *,
    segments: int = 2,
    final_segments: int = 3,
    boards_per_segment: int = 16,
    tie: Sequence[str] = ("extra_set",),
    name: str = "",
) -> Bracket:
    """A JFR-style stepladder play-off of 16 teams (the kind of a Polish III liga
    play-off): the better seeds join in later rounds, and a losers' ladder plays out
    places 9-16 one by one. The better-ranked (or upper) team is always listed first.

    - R1: ``R1-1`` 9 v 16, ``R1-2`` 10 v 15, ``R1-3`` 11 v 14, ``R1-4`` 12 v 13.
    - R2: ranks 5-8 join: ``R2-1`` 5 v the winner of R1-4, ``R2-2`` 6 v R1-3's,
      ``R2-3`` 7 v R1-2's, ``R2-4`` 8 v R1-1's (expected 5 v 12 … 8 v 9).
    - R3: ranks 1-4 join: ``R3-1`` 1 v the winner of R2-4, ``R3-2`` 2 v R2-3's,
      ``R3-3`` 3 v R2-2's, ``R3-4`` 4 v R2-1's. The losers share 5-8.
    - SF: ``SF-1`` the winners of R3-1 v R3-4, ``SF-2`` R3-2 v R3-3; round F: ``F``
      (``final_segments``, places 1-2) and ``3rd`` for the semi-final losers (3-4).

    The losers' ladder, each match in the round after its teams lose:

    - R1's losers (round R2): ``P13-1`` the losers of R1-4 v R1-1, ``P13-2`` of R1-3 v
      R1-2; then (round R3) ``P13`` their winners for 13-14, ``P15`` their losers for 15-16.
    - R2's losers (round R3): ``P9-1`` the losers of R2-4 v R2-1, ``P9-2`` of R2-3 v
      R2-2; then (round SF) ``P9`` their winners for 9-10, ``P11`` their losers for 11-12.

    Every place is single except 5-8, shared on purpose by the third round's losers.
    """
    segments = _positive("segments", segments)
    final_segments = _positive("final_segments", final_segments)
    boards = _positive("boards_per_segment", boards_per_segment)
    rules = _tie(tie)
    w, lo, rank = Slot.winner, Slot.loser, Slot.by_rank

    def match(name: str, rnd: str, slots: tuple[Slot, Slot], places: tuple[str, str]) -> Match:
        length = final_segments if name == "F" else segments
        return Match(name, rnd, slots, length, boards, tie=rules, places=places)

    none = ("", "")
    matches = [match(f"R1-{k}", "R1", (rank(8 + k), rank(17 - k)), none) for k in range(1, 5)]
    matches += [match(f"R2-{k}", "R2", (rank(4 + k), w(f"R1-{5 - k}")), none) for k in range(1, 5)]
    matches += [
        match("P13-1", "R2", (lo("R1-4"), lo("R1-1")), none),
        match("P13-2", "R2", (lo("R1-3"), lo("R1-2")), none),
    ]
    matches += [
        match(f"R3-{k}", "R3", (rank(k), w(f"R2-{5 - k}")), ("", "5-8")) for k in range(1, 5)
    ]
    matches += [
        match("P13", "R3", (w("P13-1"), w("P13-2")), ("13", "14")),
        match("P15", "R3", (lo("P13-1"), lo("P13-2")), ("15", "16")),
        match("P9-1", "R3", (lo("R2-4"), lo("R2-1")), none),
        match("P9-2", "R3", (lo("R2-3"), lo("R2-2")), none),
        match("SF-1", "SF", (w("R3-1"), w("R3-4")), none),
        match("SF-2", "SF", (w("R3-2"), w("R3-3")), none),
        match("P9", "SF", (w("P9-1"), w("P9-2")), ("9", "10")),
        match("P11", "SF", (lo("P9-1"), lo("P9-2")), ("11", "12")),
        match("F", "F", (w("SF-1"), w("SF-2")), ("1", "2")),
        match("3rd", "F", (lo("SF-1"), lo("SF-2")), ("3", "4")),
    ]
    return Bracket(
        name=name or "Stepladder play-off, 16 teams",
        entries=16,
        rounds=("R1", "R2", "R3", "SF", "F"),
        matches=tuple(matches),
    )
