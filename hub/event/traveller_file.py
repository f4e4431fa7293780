"""Read a traveller CSV (decisions D6) into checked traveller lines, naming file lines in errors.

Columns: ``board,ns,ew,contract,declarer,result``; optional ``score_ns`` (used when
``contract`` is empty), ``adjusted`` (``60/40``, ``A+/A-``: an artificial score),
``group`` (version of a fouled board) and ``round``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from hub.event.csv_text import CsvTextError, csv_dialect, decode_csv
from hub.event.problems import file_report
from scoring.board import board_vulnerability
from scoring.contract import parse_play
from scoring.errors import ScoringInputError
from scoring.law77 import possible_ns_scores, score_ns
from scoring.traveller import Artificial, Traveller, TravellerLine

REQUIRED = ("board", "ns", "ew", "contract", "declarer", "result")
OPTIONAL = ("score_ns", "adjusted", "group", "round")


@dataclass(frozen=True, slots=True)
class FileProblem:
    line: int
    message: str


class TravellerFileError(Exception):
    """Everything wrong with a traveller file, each problem with its file line; the message
    says a problem found on many lines once, with its lines."""

    def __init__(self, path: str, problems: list[FileProblem]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(file_report(path, ((p.line, p.message) for p in problems)))


def _int(row: dict[str, str], key: str, low: int = 1) -> int:
    text = row.get(key, "").strip()
    try:
        value = int(text)
    except ValueError:
        raise ScoringInputError(key, f"{key} {text!r} must be a whole number") from None
    if value < low:
        raise ScoringInputError(key, f"{key} {value} must be at least {low}")
    return value


def _line(row: dict[str, str]) -> tuple[int, TravellerLine]:
    board = _int(row, "board")
    ns, ew = _int(row, "ns"), _int(row, "ew")
    group = _int(row, "group", 0) if row.get("group", "").strip() else 0
    rnd = _int(row, "round") if row.get("round", "").strip() else None
    contract = row.get("contract", "").strip()
    adjusted = row.get("adjusted", "").strip()
    score_text = row.get("score_ns", "").strip()
    vul = board_vulnerability(board)
    if adjusted:
        if contract or row.get("result", "").strip() or score_text:
            raise ScoringInputError(
                "adjusted",
                "a row with an adjusted score leaves contract, result and score_ns empty",
            )
        return board, TravellerLine(ns, ew, None, Artificial.parse(adjusted), group, None, rnd)
    if contract:
        play = parse_play(contract, row.get("declarer", ""), row.get("result", ""))
        score = score_ns(play, vul)
        if score_text and score_text.lstrip("+") != str(score):
            raise ScoringInputError(
                "score_ns",
                f"score_ns {score_text} does not match {play} on board {board} "
                f"(vulnerable: {vul.value}), which scores {score} to NS",
            )
        return board, TravellerLine(ns, ew, score, None, group, play, rnd)
    if score_text:
        try:
            score = int(score_text)
        except ValueError:
            raise ScoringInputError(
                "score_ns", f"score_ns {score_text!r} must be a whole number"
            ) from None
        if score not in possible_ns_scores(vul):
            raise ScoringInputError(
                "score_ns",
                f"score_ns {score} is not a possible NS score on board {board} "
                f"(vulnerable: {vul.value})",
            )
        return board, TravellerLine(ns, ew, score, None, group, None, rnd)
    raise ScoringInputError("contract", "the row has no contract, score_ns or adjusted score")


def parse_travellers(text: str, path: str = "<travellers>", winners: int = 2) -> list[Traveller]:
    """Travellers by board number; raises ``TravellerFileError`` listing every problem.
    Cells are separated as the header line says (comma, semicolon or tab, ``csv_text``)."""
    found = csv_dialect(text)
    reader = csv.DictReader(found.text.splitlines(), delimiter=found.delimiter)
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise TravellerFileError(
            path,
            [
                FileProblem(
                    1 + found.skipped,
                    f"missing column(s): {', '.join(missing)}"
                    f"; the header needs {','.join(REQUIRED)}",
                )
            ],
        )
    reader.fieldnames = header
    problems: list[FileProblem] = []
    boards: dict[int, list[TravellerLine]] = {}
    seats: dict[tuple[int, str | None, int], int] = {}
    for row in reader:
        lineno = reader.line_num + found.skipped
        row = {k: (v or "") for k, v in row.items() if k is not None}
        if not any(v.strip() for v in row.values()):
            continue
        try:
            board, line = _line(row)
        except ScoringInputError as e:
            problems.append(FileProblem(lineno, e.message))
            continue
        if winners == 1 and line.ns == line.ew:
            problems.append(
                FileProblem(lineno, f"pair {line.ns} cannot sit both NS and EW on board {board}")
            )
            continue
        clash = False
        for number, side in ((line.ns, "NS"), (line.ew, "EW")):
            key = (board, side if winners == 2 else None, number)
            if key in seats:
                who = f"{side} pair {number}" if winners == 2 else f"pair {number}"
                problems.append(
                    FileProblem(
                        lineno, f"{who} already has a result on board {board} (line {seats[key]})"
                    )
                )
                clash = True
            else:
                seats[key] = lineno
        if not clash:
            boards.setdefault(board, []).append(line)
    if problems:
        raise TravellerFileError(path, problems)
    if not boards:
        raise TravellerFileError(path, [FileProblem(1, "the file has no results")])
    return [Traveller.of(b, lines) for b, lines in sorted(boards.items())]


def read_travellers(path: str | Path, winners: int = 2) -> list[Traveller]:
    """A traveller file as a spreadsheet saves it: UTF-8, UTF-16 ("Unicode text") or
    Latin-1, comma, semicolon or tab (``csv_text``, as the club roster is read)."""
    p = Path(path)
    try:
        text = decode_csv(p.read_bytes())
    except OSError as e:
        raise TravellerFileError(str(path), [FileProblem(0, f"cannot read the file: {e}")]) from e
    except CsvTextError as e:
        raise TravellerFileError(str(path), [FileProblem(e.line, e.message)]) from None
    return parse_travellers(text, str(path), winners)
