"""The campaign's offline rescore: the stored results scored again the way ``bridgehub
score`` scores a traveller file (the batch path), never through the hub's live views.

Each section's live results are written as the traveller CSV (``event report
--travellers``, ``hub/store/received_data.py``), read back with the same reader as
``bridgehub score`` (``hub/event/traveller_file.py``) and scored board by board from
scratch with ``scoring.methods.score_board`` and ``scoring.standings.tally_boards``, under
the event's own rules (``EventFile.pairs_rules``: matchpoints with Neuberg, cross-IMPs or
Butler, the event's averages; weighted and artificial scores as the store holds them in
``adjusted``). Matchpoints' ``expected`` is the event's: when the event leaves it out, each
board's own count, as the event file defines it (``bridgehub score``'s default of "the most
on any board" is a command-line default, not the event's rule). Confirmed penalties come
off the payers' totals by the event's rule (docs/api.md ``confirm_penalty``): a
``percent_of_top`` of the section's largest board top at matchpoints, ``IMP`` at IMP
scoring. Teams sections are scored match by match from the store (``rebuild.teams_view``).
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from hub.event.event_file import EventFile, Scoring
from hub.event.traveller_file import TravellerFileError, read_travellers
from hub.standings.rebuild import teams_view
from hub.store.received_data import write_travellers
from hub.store.store import Store
from scoring.board_score import BoardScore, ScoreKind
from scoring.errors import ScoringInputError
from scoring.methods import kind_of, score_board, section_rules
from scoring.standings import PairKey, Tally, tally_boards


class RescoreError(ValueError):
    """A section whose stored results cannot be scored as a traveller file (the reason
    names the section and what ``bridgehub score`` refused)."""


@dataclass(frozen=True, slots=True)
class SectionRescore:
    """One section rescored: each pair's (or team's) exact total by the hub's number, and
    the scoring kind (``%`` at matchpoints, IMPs, or VPs for teams)."""

    section: str
    totals: dict[int, Fraction]
    unit: str


def rescore(store_url: str, event_id: int) -> dict[str, dict[int, Fraction]]:
    """Section → pair (the hub's number) → exact total (percent at matchpoints, IMPs at
    IMP scoring, VPs for teams), from the store's live results alone. Opens the store
    read-only (never migrates, decisions D17); raises ``RescoreError`` for a section the
    batch path refuses."""
    store = Store.open(store_url, migrate=False)
    try:
        return {s.section: s.totals for s in rescore_store(store, event_id)}
    finally:
        store.close()


def rescore_store(store: Store, event_id: int) -> list[SectionRescore]:
    """Every section of the event rescored, from an open store (any thread: it blocks)."""
    event = store.event(event_id)
    out = []
    with tempfile.TemporaryDirectory(prefix="bridgehub-rescore-") as folder:
        for section in store.sections(event_id):
            if event.rules.scoring is Scoring.TEAMS:
                out.append(_teams(store, event, event_id, section))
            else:
                out.append(_pairs(store, event, event_id, section, Path(folder)))
    return out


def _pairs(
    store: Store, event: EventFile, event_id: int, section: str, folder: Path
) -> SectionRescore:
    """A pairs section through the traveller file, as ``bridgehub score`` reads it."""
    movement = store.movement(event_id, section)
    winners = movement.layout.winners
    rules = event.pairs_rules()
    kind = kind_of(rules)
    unit = "%" if kind is ScoreKind.MATCHPOINTS else "IMPs"
    path = write_travellers(store, event_id, folder / f"travellers-{section}.csv", section)
    if len(path.read_text("utf-8").splitlines()) <= 1:
        return SectionRescore(section, {}, unit)  # no result yet: nothing to score
    try:
        travellers = read_travellers(path, winners)
        rules = section_rules(rules, (len(t) for t in travellers))  # D22's common top
        scores = [score_board(t, rules) for t in travellers]
    except TravellerFileError as e:
        raise RescoreError(f"section {section}: {e}") from None
    except ScoringInputError as e:
        raise RescoreError(f"section {section}: {e.message}") from None
    tally = tally_boards(scores, kind, winners)
    _deduct_penalties(tally, scores, store.penalties(event_id), section)
    totals: dict[int, Fraction] = {}
    for t in tally.totals():
        if t.pair.number in totals:  # one number in both directions: never keep just one
            raise RescoreError(
                f"section {section}: pair {t.pair.number} is scored in both directions "
                "(an arrow switch?): the rescore keys pairs by the hub's number"
            )
        totals[t.pair.number] = t.total
    return SectionRescore(section, totals, unit)


def _teams(store: Store, event: EventFile, event_id: int, section: str) -> SectionRescore:
    """A teams section: each match scored from its two tables, VPs summed."""
    movement = store.movement(event_id, section)
    view = teams_view(event, section, movement, store.live_lines(event_id, section))
    totals = {int(str(t.record.team)): Fraction(t.record.vp) for t in view.team_standings}
    return SectionRescore(section, totals, "VP")


def _deduct_penalties(
    tally: Tally, scores: list[BoardScore], penalties: list[dict[str, Any]], section: str
) -> None:
    """Confirmed penalties of the section off their payers: ``percent_of_top`` of the
    largest board top (matchpoints) or whole ``IMP`` (IMP scoring); other units (VP,
    warnings, the director's own decisions) are not pairs standings' units."""
    top = max((int(s.top.max()) for s in scores if s.top is not None), default=0)
    due: dict[PairKey, Fraction] = defaultdict(Fraction)
    for p in penalties:
        if p.get("section") != section or p.get("status") != "confirmed":
            continue
        unit = p.get("unit")
        if unit == "percent_of_top" and tally.kind is ScoreKind.MATCHPOINTS:
            points = Fraction(str(p["amount"])) * top / 100
        elif unit == "IMP" and tally.kind is ScoreKind.IMPS:
            points = Fraction(str(p["amount"]))
        else:
            continue
        payer = p.get("payer") or ""
        share = Fraction(1, 2) if payer == "shared" else Fraction(1)
        ns, ew = p.get("contestants") or (None, None)
        sides = {"NS": ("NS",), "EW": ("EW",), "both": ("NS", "EW"), "shared": ("NS", "EW")}
        for side in sides.get(payer, ()):
            number = ns if side == "NS" else ew
            if number:
                key = PairKey(int(number), side if tally.winners == 2 else None)
                due[key] += points * share
    for key, points in due.items():
        tally.adjust(key, -points)
