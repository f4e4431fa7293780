"""The campaign's invariants (issue 12 [FAULTS]), each a number that must be zero.

- **lost**: a result a terminal was told is stored (ACK accepted, duplicate or held) with
  no stored revision of its key holding that content (decisions D11, D21: "no result a
  terminal was told is stored is ever discarded"; a held, released or superseded revision
  still counts as stored). A NO PLAY (empty contract) is stored as its ``no_play`` audit
  entry.
- **doubled**: one result stored twice. The store keeps revisions (D21), so a second
  revision is not a double by itself: a double is a revision whose submission (the
  terminal's key, ``serial:section:table:round:board:revision``, later generations
  ``#2`` ...) was already stored with the same content at the same key, not rejected
  and not erased since (what ``ResultStore.record`` answers "duplicate" instead of
  writing); and, in pairs sections, a pair with two live results on one board (two keys
  scoring it twice; a team plays each board at both tables of its match).
- **stuck**: results the terminals still hold unacknowledged (given by the campaign).
- **incomplete**: table-rounds of the movement with a pair on both sides (sit-outs
  excluded) where some board of the round has no live result.
- **standings differ**: pairs whose published total (the exact string ``total`` of the
  feed's ``standings`` rows, docs/api.md) differs from the offline rescore
  (``campaign.rescore``), pairs present on one side only, and sections whose published
  standings are not final.

How a confirmed result is found in the store (its content, its pairs in the room's or the
hub's numbers) is ``campaign.confirmed``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from campaign.confirmed import Confirmed, Key, holds, stored_text, where
from campaign.rescore import RescoreError, SectionRescore, rescore_store
from hub.event.movement.model import Movement, MovementKind
from hub.event.pair_labels import PairLabels
from hub.store.store import Store, StoredResult

__all__ = ["Confirmed", "Invariants", "check", "check_store"]

DETAILS = 20  # specific findings kept for the report


@dataclass
class Invariants:
    """The campaign's checks; each count must be zero (``ok``). ``details``: the first
    findings, each naming its table, round and board (or pair). A plain value."""

    lost: int = 0
    doubled: int = 0
    stuck: int = 0
    incomplete: int = 0
    standings_differ: int = 0
    details: list[str] = field(default_factory=list)
    more: int = 0  # findings beyond those in ``details``

    @property
    def ok(self) -> bool:
        counts = (self.lost, self.doubled, self.stuck, self.incomplete, self.standings_differ)
        return not any(counts)

    def lines(self) -> list[str]:
        """What the campaign prints: one line per count, then the findings."""
        out = [
            f"lost {self.lost}",
            f"doubled {self.doubled}",
            f"stuck {self.stuck}",
            f"incomplete {self.incomplete}",
            f"standings differ {self.standings_differ}",
        ]
        out += [f"  {d}" for d in self.details]
        if self.more:
            out.append(f"  … and {self.more} more")
        return out

    def note(self, text: str) -> None:
        if len(self.details) < DETAILS:
            self.details.append(text)
        else:
            self.more += 1


def check(
    store_url: str,
    event_id: int,
    confirmed: list[Confirmed],
    unacked: int,
    published: dict[str, list[dict]],
    final: set[str],
) -> Invariants:
    """Every invariant of a finished campaign, from the store (opened read-only: never
    migrated), what the terminals were told, the results they still hold unacknowledged,
    and the standings the hub published (``FeedWatch.published`` and ``.final``). Blocks:
    call it from a worker thread or after the room has stopped."""
    store = Store.open(store_url, migrate=False)
    try:
        return check_store(store, event_id, confirmed, unacked, published, final)
    finally:
        store.close()


def check_store(
    store: Store,
    event_id: int,
    confirmed: Sequence[Confirmed],
    unacked: int,
    published: dict[str, list[dict]],
    final: set[str],
) -> Invariants:
    """``check`` on an open store."""
    out = Invariants()
    rows = store.results(event_id)
    live = store.live_results(event_id)
    movements = {s: store.movement(event_id, s) for s in store.sections(event_id)}
    labels = {s: PairLabels.of(m, s) for s, m in movements.items()}
    no_plays = {
        (d.get("section"), d.get("table"), d.get("round"), d.get("board"))
        for d in (a["detail"] for a in store.audit_log(event_id, "no_play"))
        if isinstance(d, dict)
    }
    _lost(out, confirmed, rows, no_plays, labels)
    teams = {s for s, m in movements.items() if m.layout.kind is MovementKind.TEAMS}
    _doubled(out, rows, [r for r in live if r.section not in teams], labels)
    out.stuck = max(0, unacked)
    if unacked > 0:
        out.note(f"{unacked} result(s) still unacknowledged at the terminals")
    _incomplete(out, movements, live)
    try:
        rescored = rescore_store(store, event_id)
    except RescoreError as e:
        out.standings_differ += max(1, sum(len(r) for r in published.values()))
        out.note(f"the offline rescore failed: {e}")
        return out
    _standings(out, rescored, published, final, labels)
    return out


def _lost(
    out: Invariants,
    confirmed: Iterable[Confirmed],
    rows: list[StoredResult],
    no_plays: set[tuple[Any, ...]],
    labels: dict[str, PairLabels],
) -> None:
    """Each confirmed result must be some stored revision of its key with its content."""
    by_key: dict[Key, list[StoredResult]] = defaultdict(list)
    for r in rows:
        by_key[r.key].append(r)
    seen: set[Confirmed] = set()
    for c in confirmed:
        if c in seen:
            continue  # the same result confirmed twice (a duplicate's ACK): checked once
        seen.add(c)
        if c.no_play:
            if c.key not in no_plays:
                out.lost += 1
                out.note(f"{where(c.key)}: confirmed NO PLAY, not in the store")
            continue
        want = c.content()
        stored = by_key.get(c.key, [])
        numbering = labels.get(c.section)
        if any(holds(c, want, r, numbering) for r in stored):
            continue
        out.lost += 1
        if not stored:
            out.note(f"{where(c.key)}: confirmed {c.text()}, not in the store")
        else:
            has = "; ".join(
                sorted({f"{stored_text(r)} pairs {r.ns_pair}-{r.ew_pair}" for r in stored})
            )
            mine = "" if c.ns_pair is None else f" pairs {c.ns_pair}-{c.ew_pair}"
            out.note(f"{where(c.key)}: confirmed {c.text()}{mine}, the store has only {has}")


def _family(submission: str) -> str:
    """A submission key without its generation (``key#2`` → ``key``)."""
    base, sep, n = submission.rpartition("#")
    return base if sep and n.isdigit() else submission


def _doubled(
    out: Invariants,
    rows: list[StoredResult],
    live: list[StoredResult],
    labels: dict[str, PairLabels],
) -> None:
    """Revisions that repeat their submission's content, and pairs scored twice on a
    board (``live``: pairs sections only; a team plays each board at both its tables)."""
    erasures: dict[Key, list[int]] = defaultdict(list)
    families: dict[str, list[StoredResult]] = defaultdict(list)
    for r in rows:
        if r.erased and r.status == "accepted":
            erasures[r.key].append(r.revision)
        if r.submission_key:
            families[_family(r.submission_key)].append(r)
    for family in families.values():
        family.sort(key=lambda r: (r.key, r.revision))
        for i, r in enumerate(family):
            twin = next(
                (
                    x
                    for x in family[:i]
                    if x.key == r.key
                    and x.status != "rejected"
                    and r.same_result(x)
                    and not any(x.revision < e < r.revision for e in erasures[r.key])
                ),
                None,
            )
            if twin is not None:
                out.doubled += 1
                out.note(
                    f"{where(r.key)}: {stored_text(r)} stored twice (revisions {twin.revision} "
                    f"and {r.revision}, submission {twin.submission_key})"
                )
    seats: Counter[tuple[str, int, int]] = Counter()  # (section, board, pair): the hub's
    first: dict[tuple[str, int, int], StoredResult] = {}  # numbers are one per pair
    for r in live:
        for pair in (r.ns_pair, r.ew_pair):
            if pair > 0:
                seat = (r.section, r.board, pair)
                seats[seat] += 1
                first.setdefault(seat, r)
    for (section, board, pair), n in sorted(seats.items()):
        if n > 1:
            out.doubled += n - 1
            label = labels[section].label(pair) if section in labels else str(pair)
            at = first[(section, board, pair)]
            out.note(
                f"section {section} board {board}: pair {label} has {n} live results "
                f"(one at table {section}{at.table} round {at.round})"
            )


def _incomplete(out: Invariants, movements: dict[str, Movement], live: list[StoredResult]) -> None:
    """Each table-round with a pair on both sides needs a live result on each board."""
    played = {r.key for r in live}
    for section, movement in sorted(movements.items()):
        for row in sorted(movement.rows, key=lambda x: (x.round, x.table)):
            if row.section != section or not (row.ns_pair and row.ew_pair):
                continue
            missing = [b for b in row.boards if (section, row.table, row.round, b) not in played]
            if missing:
                out.incomplete += 1
                boards = ", ".join(map(str, missing))
                out.note(
                    f"{section}{row.table} round {row.round}: board"
                    f"{'s' * (len(missing) > 1)} {boards} without a live result"
                )


def _standings(
    out: Invariants,
    rescored: list[SectionRescore],
    published: dict[str, list[dict]],
    final: set[str],
    labels: dict[str, PairLabels],
) -> None:
    """Published totals against the rescore, pair by pair, exactly."""
    by_section = {s.section: s for s in rescored}
    for section in sorted(by_section.keys() | published.keys()):
        mine = by_section.get(section)
        rows = published.get(section)
        totals = mine.totals if mine is not None else {}
        if rows is None and not totals:
            continue  # a section with no results and nothing published: nothing to compare
        if section not in final:
            out.standings_differ += 1
            what = "no standings were published" if rows is None else "not the final ones"
            out.note(f"section {section}: {what}")
        shown: dict[int, str] = {}
        for row in rows or []:
            try:
                shown[int(row["pair"])] = str(row["total"])
            except (KeyError, TypeError, ValueError):
                out.standings_differ += 1
                out.note(f"section {section}: a published row without pair or total: {row}")
        name = labels.get(section)
        for pair in sorted(shown.keys() | totals.keys()):
            label = name.label(pair) if name is not None else str(pair)
            where = f"section {section} pair {label}"
            if pair not in totals:
                out.standings_differ += 1
                out.note(f"{where}: published {shown[pair]}, no result in the store")
            elif pair not in shown:
                out.standings_differ += 1
                out.note(f"{where}: rescored {totals[pair]}, not in the published standings")
            elif not _same(shown[pair], totals[pair]):
                out.standings_differ += 1
                out.note(
                    f"{where}: published {shown[pair]} ({_decimal(shown[pair])}), "
                    f"rescored {totals[pair]} ({_decimal(str(totals[pair]))})"
                )


def _same(text: str, value: Fraction) -> bool:
    try:
        return Fraction(text) == value
    except (ValueError, ZeroDivisionError):
        return False


def _decimal(text: str) -> str:
    try:
        return f"{float(Fraction(text)):.4f}"
    except (ValueError, ZeroDivisionError):
        return "not a number"
