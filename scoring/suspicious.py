"""Suspicious scores on a board, found before its standings are published (decisions D12).

Two checks, as Bridgemate Control Software makes them:

- **Opposite sides**: the same strain declared by NS at some tables and by EW at others,
  when the tricks of the two add up to more than a limit (one limit for suits, a higher
  one for no-trumps, where both sides can legitimately take many tricks). The side that
  declared the strain at fewer tables is flagged (it is probably the wrong declarer); when
  the counts are equal, both are.
- **Double dummy**: with a hand record, tricks that differ from the double-dummy number
  for that declarer and strain by more than a limit (a mis-keyed result or a fouled board).
  By default (``DoubleDummyFlags.BONUS``) only where the difference wins or loses a bonus,
  the flags a TD acts on: a game or slam made at the table and not double dummy or the
  other way round, or any contract made at the table that fails double dummy. A club
  part-score played four tricks under double dummy is ordinary club play, not a mis-key
  (TD trial G14: 17 such flags in 7 rounds, each withholding its round's standings).
  ``DoubleDummyFlags.TRICKS`` flags every result past the limit, as before.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from scoring.board import Seat, Side
from scoring.contract import Contract, Strain
from scoring.law77 import trick_score

STRAIN_NAMES = {
    Strain.CLUBS: "clubs",
    Strain.DIAMONDS: "diamonds",
    Strain.HEARTS: "hearts",
    Strain.SPADES: "spades",
    Strain.NOTRUMP: "no-trumps",
}


class DoubleDummyFlags(Enum):
    """Which results past the double-dummy limit are flagged."""

    BONUS = "bonus"
    """Only where the difference wins or loses a bonus (the module's docstring)."""
    TRICKS = "tricks"
    """Every one."""


GAME_TRICK_SCORE = 100  # a contract whose trick score, doubling counted, scores a game bonus


@dataclass(frozen=True, slots=True)
class SuspicionLimits:
    """When a result is suspicious. Flagged when the combined tricks are *more than*
    ``suit_tricks`` / ``notrump_tricks``, or when the tricks differ from double dummy by
    *more than* ``double_dummy`` (``None``: no double-dummy check), by the rule
    ``double_dummy_flags``."""

    suit_tricks: int = 14
    notrump_tricks: int = 15
    double_dummy: int | None = 3
    double_dummy_flags: DoubleDummyFlags = DoubleDummyFlags.BONUS


@dataclass(frozen=True, slots=True)
class PlayedResult:
    """A played result on a board; ``key`` says which one (the hub uses table and round)."""

    key: Hashable
    contract: Contract
    declarer: Seat
    tricks: int

    def describe(self) -> str:
        return f"{self.contract} by {self.declarer.name} taking {self.tricks}"


def opposite_sides(results: Iterable[PlayedResult], limits: SuspicionLimits) -> dict[Hashable, str]:
    """The results flagged because the other side declared the same strain elsewhere with
    too many tricks between them; each with the reason for the director."""
    by_strain: dict[Strain, list[PlayedResult]] = {}
    for r in results:
        by_strain.setdefault(r.contract.strain, []).append(r)
    flags: dict[Hashable, str] = {}
    for strain, played in by_strain.items():
        limit = limits.notrump_tricks if strain is Strain.NOTRUMP else limits.suit_tricks
        ns = [r for r in played if r.declarer.side is Side.NS]
        ew = [r for r in played if r.declarer.side is Side.EW]
        if not ns or not ew:
            continue
        best_ns = max(ns, key=lambda r: r.tricks)
        best_ew = max(ew, key=lambda r: r.tricks)
        for mine, best, others, flagged in (
            (ns, best_ew, ew, len(ns) <= len(ew)),
            (ew, best_ns, ns, len(ew) <= len(ns)),
        ):
            if not flagged:
                continue
            side = "EW" if others is ew else "NS"
            for r in mine:
                if r.tricks + best.tricks > limit:
                    flags[r.key] = (
                        f"{r.describe()}, but {side} declared {STRAIN_NAMES[strain]} at "
                        f"{len(others)} table{'s' * (len(others) != 1)} ({best.describe()}): "
                        f"{r.tricks + best.tricks} tricks between the sides, more than "
                        f"{limit}; check the declarer"
                    )
    return flags


def bonus_at_stake(contract: Contract, tricks: int, dd: int) -> str | None:
    """What taking ``tricks`` instead of double dummy's ``dd`` wins or loses, in words, or
    None when the score keeps its kind: a game or slam made at one and not the other, or a
    contract made at the table that fails double dummy."""
    made, dd_made = tricks >= contract.tricks_needed, dd >= contract.tricks_needed
    if made == dd_made:
        return None
    if contract.level >= 6:
        kind = "grand slam" if contract.level == 7 else "slam"
    elif trick_score(contract) >= GAME_TRICK_SCORE:  # 2♠X and 1NTXX are games (Law 77)
        kind = "game"
    elif made:
        return "made at the table, it fails double dummy"
    else:
        return None  # a part-score that failed where double dummy makes it: club play
    table, dd_word = ("makes", "fails") if made else ("fails", "makes")
    return f"the {kind} {table} at the table and {dd_word} double dummy"


def double_dummy(
    results: Iterable[PlayedResult],
    makeable: Mapping[tuple[Seat, Strain], int],
    limit: int,
    rule: DoubleDummyFlags = DoubleDummyFlags.TRICKS,
) -> dict[Hashable, str]:
    """The results whose tricks are more than ``limit`` away from double dummy; with
    ``DoubleDummyFlags.BONUS`` only those where a bonus is at stake (``bonus_at_stake``)."""
    flags: dict[Hashable, str] = {}
    for r in results:
        dd = makeable.get((r.declarer, r.contract.strain))
        if dd is None or abs(r.tricks - dd) <= limit:
            continue
        stake = bonus_at_stake(r.contract, r.tricks, dd)
        if rule is DoubleDummyFlags.BONUS and stake is None:
            continue
        flags[r.key] = (
            f"{r.describe()}, double dummy {dd}: {abs(r.tricks - dd)} tricks "
            f"apart, more than {limit}{f' ({stake})' if stake else ''}; check the result "
            "and the board"
        )
    return flags


def suspicious(
    results: Iterable[PlayedResult],
    limits: SuspicionLimits,
    makeable: Mapping[tuple[Seat, Strain], int] | None = None,
) -> dict[Hashable, str]:
    """Every flagged result on a board with its reasons (both checks)."""
    played = list(results)
    flags = opposite_sides(played, limits)
    if makeable is not None and limits.double_dummy is not None:
        found = double_dummy(played, makeable, limits.double_dummy, limits.double_dummy_flags)
        for key, why in found.items():
            flags[key] = f"{flags[key]}; {why}" if key in flags else why
    return flags
