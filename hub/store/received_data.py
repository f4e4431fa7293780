"""Results in and out in a scoring program's shapes: Bridgemate's ReceivedData table (the
results that count, one row per played key: TD trial F18) and the traveller CSV that
``bridgehub score`` reads; and ReceivedData read back in, with a result that conflicts with
a stored one held for the director, as the live hub holds it (decisions D9)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from hub.event.csv_cells import SafeWriter, plain_row
from hub.event.result_key import KeyVerdict, check_key
from hub.store.store import ResultEntry, Store, StoredResult, StoreError
from scoring.board import Seat
from scoring.contract import parse_contract, parse_tricks
from scoring.deal import normalise_card
from scoring.traveller import Artificial

RECEIVED_DATA = (
    "ID",
    "Section",
    "Table",
    "Round",
    "Board",
    "PairNS",
    "PairEW",
    "Declarer",
    "NS/EW",
    "Contract",
    "Result",
    "LeadCard",
    "Remarks",
    "DateLog",
    "TimeLog",
    "Erased",
)
TRAVELLERS = (
    "board",
    "ns",
    "ew",
    "contract",
    "declarer",
    "result",
    "score_ns",
    "adjusted",
    "round",
)


def bws_contract(contract: str | None) -> str:
    """Bridgemate's spelling: ``4 S x``, ``3 NT``, ``PASS``."""
    c = parse_contract(contract or "PASS")
    if c is None:
        return "PASS"
    dbl = {1: "", 2: " x", 4: " xx"}[c.doubling.value]
    return f"{c.level} {c.strain.value}{dbl}"


def result_text(r: StoredResult | ResultEntry) -> str:
    """Tricks against the contract: ``=``, ``+1``, ``-2``; empty for a pass or a score."""
    c = parse_contract(r.contract) if r.contract else None
    if c is None or r.tricks is None:
        return ""
    diff = r.tricks - c.tricks_needed
    return "=" if diff == 0 else f"{diff:+d}"


def describe(r: StoredResult | ResultEntry) -> str:
    """A result as a TD says it: ``4S N =``, ``PASS``, ``adjusted 60/40``, ``score 420``."""
    if r.adjusted:
        return f"adjusted {r.adjusted}"
    if r.contract:
        c = parse_contract(r.contract)
        if c is None:
            return "PASS"
        return f"{c} {r.declarer or '?'} {result_text(r)}"
    return f"score {r.score_ns}" if r.score_ns is not None else "no result"


def write_received_data(store: Store, event_id: int, path: Path) -> Path:
    """ReceivedData.csv with the results that count: the live result of each key, under
    its real board (a held result the TD accepted appears once, as accepted). Held,
    rejected and superseded revisions stay in the store and the JSON backup, never here."""
    with path.open("w", newline="", encoding="utf-8") as f:
        w = SafeWriter(csv.writer(f), keep={RECEIVED_DATA.index("Result")})  # "=", "+1": ours
        w.writerow(RECEIVED_DATA)
        for r in sorted(store.live_results(event_id), key=lambda r: r.id):
            seat = Seat.parse(r.declarer) if r.declarer else None
            declarer_pair = (
                "" if seat is None else (r.ns_pair if seat.side.value == "NS" else r.ew_pair)
            )
            when = r.received_at or dt.datetime.now(dt.UTC)
            remarks = f"adjusted {r.adjusted}" if r.adjusted else (r.note or "")
            score_only = not r.adjusted and not r.contract and r.score_ns is not None
            if score_only:  # a score without a contract (a traveller file's): never "PASS"
                remarks = f"score {r.score_ns}"
            w.writerow(
                [
                    r.id,
                    r.section,
                    r.table,
                    r.round,
                    r.board,
                    r.ns_pair,
                    r.ew_pair,
                    declarer_pair,
                    r.declarer or "",
                    "" if r.adjusted or score_only else bws_contract(r.contract),
                    result_text(r),
                    r.lead or "",
                    remarks,
                    when.strftime("%Y-%m-%d"),
                    when.strftime("%H:%M:%S"),
                    "False",
                ]
            )
    return path


def write_travellers(store: Store, event_id: int, path: Path, section: str | None = None) -> Path:
    """The live results as the traveller CSV ``bridgehub score`` reads (decisions D6):
    ``board,ns,ew,contract,declarer,result,score_ns,adjusted,round``; one section (default:
    every section, whose pair numbers must then not overlap)."""
    with path.open("w", newline="", encoding="utf-8") as f:
        w = SafeWriter(csv.writer(f), keep={TRAVELLERS.index("result")})
        w.writerow(TRAVELLERS)
        rows = store.live_results(event_id, section)
        for r in sorted(rows, key=lambda r: (r.section, r.board, r.round, r.table)):
            if not (r.ns_pair and r.ew_pair):
                continue  # a sit-out's line an older hub stored: never scored
            if r.adjusted:
                cells: list[object] = ["", "", "", "", r.adjusted]
            elif r.contract:
                played = parse_contract(r.contract) is not None
                contract = str(parse_contract(r.contract)) if played else "PASS"
                cells = [contract, (r.declarer or "") if played else "", result_text(r), "", ""]
            else:
                cells = ["", "", "", "" if r.score_ns is None else r.score_ns, ""]
            w.writerow([r.board, r.ns_pair, r.ew_pair, *cells, r.round])
    return path


@dataclass
class ImportOutcome:
    """What ``import_received_data`` did: results added, rows already stored, erased rows
    skipped, and one line per result held for the director (with the reason). A plain
    value, made and read on the calling thread (any thread)."""

    added: int = 0
    duplicates: int = 0
    erased: int = 0
    held: list[str] = field(default_factory=list)

    def lines(self, event_id: int) -> list[str]:
        """What the command line prints."""
        out = [f"added {self.added} result{'s' if self.added != 1 else ''} to event {event_id}"]
        if self.duplicates:
            out.append(f"{self.duplicates} already stored (skipped)")
        if self.erased:
            out.append(f"{self.erased} erased row{'s' if self.erased != 1 else ''} skipped")
        if self.held:
            n = len(self.held)
            out.append(f"{n} result{'s' if n != 1 else ''} held for the director: " + self.held[0])
            out += [f"  {h}" for h in self.held[1:]]
        return out


# the ReceivedData columns a row is read from (ID, LeadCard, Remarks, Erased, Declarer and
# the dates may be left out)
NEEDED = ("Section", "Table", "Round", "Board", "PairNS", "PairEW", "NS/EW", "Contract", "Result")
MAX_NUMBER = 65535  # a table, round, board or pair number on the wire and in the store


def _number(row: dict[str, str], column: str) -> int:
    """A whole number 1-65535 from ``column`` (ValueError naming the column and the cell)."""
    text = (row.get(column) or "").strip()
    if not text.isdigit() or not 1 <= int(text) <= MAX_NUMBER:
        hint = " (pair 0 is the sit-out: no result is entered against it)" if text == "0" else ""
        raise ValueError(f"{column} {text!r} is not a number 1-{MAX_NUMBER}{hint}")
    return int(text)


def _entry(row: dict[str, str], n: int, path: Path, actor: str) -> ResultEntry:
    """A row as a store entry, every cell checked as the live hub checks a terminal's
    (``ValueError`` naming the cell): nothing the scoring cannot read is stored."""
    section = (row.get("Section") or "").strip()
    if not section:
        raise ValueError("Section is empty")
    contract = (row.get("Contract", "") or "").strip().upper().replace(" ", "") or None
    declarer = (row.get("NS/EW") or "").strip() or None
    c = parse_contract(contract) if contract else None
    tricks = parse_tricks(c, (row.get("Result") or "").strip()) if c is not None else None
    remarks = row.get("Remarks", "") or ""
    adjusted = (
        remarks.removeprefix("adjusted ").strip() if remarks.startswith("adjusted ") else None
    )
    scored = remarks.startswith("score ") and not contract and not adjusted  # our export's
    score = remarks.removeprefix("score ").strip() if scored else None
    if score is not None and not score.removeprefix("-").isdigit():
        raise ValueError(f"Remarks {remarks!r}: a score is a whole number such as 420 or -50")
    if adjusted:
        Artificial.parse(adjusted)
    elif c is not None:
        declarer = Seat.parse(declarer or "").name
    lead = (row.get("LeadCard") or "").strip()
    return ResultEntry(
        section=section,
        table=_number(row, "Table"),
        round=_number(row, "Round"),
        board=_number(row, "Board"),
        ns_pair=_number(row, "PairNS"),
        ew_pair=_number(row, "PairEW"),
        contract=None if adjusted or score is not None else contract,
        declarer=None if adjusted or c is None else declarer,
        lead=normalise_card(lead) if lead and c is not None and not adjusted else None,
        tricks=tricks,
        score_ns=None if score is None else int(score),
        adjusted=adjusted,
        entered_by=actor,
        submission_key=f"import:{path.name}:{row.get('ID') or n}",
    )


def _same(prior: StoredResult | ResultEntry, e: ResultEntry) -> bool:
    """The file's row says what is stored; a row without a lead (many programs keep none)
    agrees with a stored result that has one."""
    return prior.same_result(e) or (
        e.lead is None and prior.same_result(replace(e, lead=prior.lead))
    )


def _conflict(prior: StoredResult | ResultEntry, e: ResultEntry) -> str:
    """The director's line for a row that differs from the stored result of its key."""
    said, says = describe(prior), describe(e)
    if said == says:  # the same contract and result: name what differs
        said = f"{said}, lead {prior.lead or 'none'}, pairs {prior.ns_pair}-{prior.ew_pair}"
        says = f"{says}, lead {e.lead or 'none'}, pairs {e.ns_pair}-{e.ew_pair}"
    return f"board {e.board} table {e.table} already has {said}; the file says {says}"


def import_received_data(
    store: Store, event_id: int, path: Path, actor: str = "import"
) -> ImportOutcome:
    """Read a ReceivedData.csv into the store. Rows marked erased are skipped; a row the
    store has already is skipped; a row whose key has another live result, or that the
    movement holds (a board or pairs not at that table), is stored held for the director
    with the reason, as the live hub holds it, never over the stored result. A bad row or
    a key outside the movement refuses the whole file, naming its line; nothing is written."""
    rows = _rows(path)
    entries: list[tuple[int, ResultEntry]] = []
    outcome = ImportOutcome()
    for n, row in enumerate(rows, start=2):
        if (row.get("Erased") or "").strip().lower() in ("true", "1"):
            outcome.erased += 1
            continue
        try:
            entries.append((n, _entry(row, n, path, actor)))
        except ValueError as bad:  # ScoringInputError too
            raise StoreError(f"{path.name} line {n}: {bad}") from None  # one form: FILE line N
    live: dict[tuple[str, int, int, int], StoredResult | ResultEntry] = {
        r.key: r for r in store.live_results(event_id)
    }
    accepted: list[ResultEntry] = []
    held: list[tuple[ResultEntry, str]] = []
    problems = []
    for n, e in entries:
        try:
            movement = store.movement(event_id, e.section)
        except StoreError as missing:
            problems.append(f"{path.name} line {n}: {missing}")
            continue
        key = check_key(movement, e.section, e.table, e.round, e.board, e.ns_pair, e.ew_pair)
        prior = live.get(e.key)
        if key.verdict is KeyVerdict.REFUSE:
            problems.append(f"{path.name} line {n}: {key.reason}")
        elif key.verdict is KeyVerdict.HOLD:
            held.append((e, f"line {n}: {key.reason}"))
        elif prior is not None and _same(prior, e):
            outcome.duplicates += 1
        elif prior is not None:
            held.append((e, _conflict(prior, e)))
        else:
            accepted.append(e)
            live[e.key] = e  # a second, different row for the key in the file is held
    if problems:
        raise StoreError("; ".join(problems))
    _store(store, event_id, accepted, held, outcome, actor, path)
    return outcome


def _rows(path: Path) -> list[dict[str, str]]:
    """The file's rows by column name; ``StoreError`` in the form ``FILE line N: ...`` for
    a file that is not UTF-8 or whose header lacks a column a row is read from (a
    semicolon-separated or renamed header: before, "line 2: Section is empty")."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:  # saved as UTF-16 or Latin-1: say where
        line = bytes(e.object[: e.start]).count(b"\n") + 1
        raise StoreError(
            f"{path.name} line {line}: not a text file in UTF-8: save it as UTF-8"
        ) from None
    reader = csv.DictReader(io.StringIO(text))
    header = [(h or "").strip() for h in reader.fieldnames or []]
    missing = [c for c in NEEDED if c not in header]
    if missing:
        raise StoreError(
            f"{path.name} line 1: missing column(s) {', '.join(missing)}; a ReceivedData "
            f"header names {','.join(NEEDED)} (and ID, LeadCard, Remarks, Erased), "
            "separated by commas"
        )
    reader.fieldnames = header
    return [plain_row(row) for row in reader]


def _store(
    store: Store,
    event_id: int,
    accepted: list[ResultEntry],
    held: Iterable[tuple[ResultEntry, str]],
    outcome: ImportOutcome,
    actor: str,
    path: Path,
) -> None:
    """Accepted rows in one commit, held ones in another (each submission keyed: importing
    the file again stores nothing twice, decisions D21); every held result audited with its
    reason, as the live hub audits one."""
    if accepted:
        stored = store.record(event_id, accepted)
        outcome.added = sum(1 for s in stored if not s.duplicate)
        outcome.duplicates += sum(1 for s in stored if s.duplicate)
    held = list(held)
    if held:
        entries = [replace(e, note=reason) for e, reason in held]
        for st, (_, reason) in zip(
            store.record(event_id, entries, status="held"), held, strict=True
        ):
            if st.duplicate:
                outcome.duplicates += 1
                continue
            store.audit(event_id, actor, "held", {"result": st.id, "reason": reason})
            outcome.held.append(reason)
    store.audit(
        event_id,
        actor,
        "imported_results",
        {"file": path.name, "added": outcome.added, "held": len(outcome.held)},
    )
