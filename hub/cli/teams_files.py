"""The two CSV files of ``bridgehub teams draw`` and ``bridgehub teams standings`` (issue 16),
read the same way for both commands.

``TEAMS.csv``: ``team,name`` and optionally ``masterpoints`` (the team's average, seed 001)
and ``number`` (the team number; without it a team called ``7`` is number 7, else the row
order); other columns are ignored. ``MATCHES.csv``: ``round,home,away,home_vp,away_vp`` and
optionally ``home_imps,away_imps``, ``home_points,away_points`` (total points),
``home_boards_won,away_boards_won``; one line per match played, a bye with ``away`` empty
(its VPs in ``home_vp``). Numbers are decimals or fractions (``16.46``, ``50/3``). Every
problem of a file is reported at once as ``FILE:LINE: message``; nothing is guessed.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from hub.event.problems import file_report
from scoring.draw.model import Team
from scoring.team_tie_criteria import TeamMatch

TEAM_COLUMNS = ("team", "name")
MATCH_COLUMNS = ("round", "home", "away", "home_vp", "away_vp")
MATCH_OPTIONAL = (
    ("home_imps", "away_imps"),
    ("home_points", "away_points"),
    ("home_boards_won", "away_boards_won"),
)
_NUMBER = re.compile(r"-?\d+(\.\d+)?(/\d+)?")
_EXTRA = "\x00extra"  # the key a row with too many values carries its problem under


class FileProblems(Exception):
    """Every problem found in one file, as ``(line, message)``."""

    def __init__(self, path: str, problems: list[tuple[int, str]]) -> None:
        super().__init__(file_report(path, problems))


class _RowError(Exception):
    pass


def _rows(path: Path, required: tuple[str, ...]) -> tuple[list[str], list[tuple[int, dict]]]:
    """The header (lower case) and the non-blank rows with their line numbers."""
    name = str(path)
    try:
        data = path.read_bytes()
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FileProblems(name, [(line, "not UTF-8 text: save it as UTF-8")]) from None
    except OSError as e:
        raise FileProblems(name, [(0, f"cannot be read: {e.strerror}")]) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        missing = [c for c in required if c not in header]
        if missing:
            raise FileProblems(
                name,
                [(1, f"missing column(s): {', '.join(missing)}; the header needs "
                     f"{','.join(required)}")],
            )  # fmt: skip
        rows = []
        for values in reader:
            line = reader.line_num
            if not any(v.strip() for v in values) or values[0].strip().startswith("#"):
                continue  # blank lines and comments
            if len(values) > len(header):
                rows.append((line, {_EXTRA: "more values than the header has columns"}))
                continue
            rows.append((line, {h: v.strip() for h, v in zip(header, values, strict=False)}))
    except csv.Error as e:
        raise FileProblems(name, [(reader.line_num, f"not a CSV line: {e}")]) from None
    return header, rows


def _number(row: dict, key: str, whole: bool = False, low: Fraction | None = None) -> Any:
    text = row.get(key, "")
    pattern = r"-?\d+" if whole else _NUMBER
    if not re.fullmatch(pattern, text) or text.endswith("/0"):
        kind = "a whole number" if whole else "a number (16.46 or 50/3)"
        raise _RowError(f"{key} {text!r} must be {kind}")
    value = int(text) if whole else Fraction(text)
    if low is not None and value < low:
        raise _RowError(f"{key} {text} must be at least {low}")
    return value


def read_teams(path: Path) -> list[Team]:
    """The entry list, in file order."""
    _, rows = _rows(path, TEAM_COLUMNS)
    ids = [row.get("team", "") for _, row in rows]
    numeric = bool(ids) and all(re.fullmatch(r"\d+", t) for t in ids)
    problems: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    numbers: dict[int, int] = {}
    out = []
    for index, (line, row) in enumerate(rows, start=1):
        try:
            if _EXTRA in row:
                raise _RowError(row[_EXTRA])
            team = row.get("team", "")
            if not team:
                raise _RowError("team is empty")
            if team in seen:
                raise _RowError(f"team {team} is already on line {seen[team]}")
            mp = None
            if row.get("masterpoints"):
                mp = _number(row, "masterpoints", low=Fraction(0))
            if row.get("number"):
                number = _number(row, "number", whole=True, low=Fraction(1))
            else:
                number = int(team) if numeric else index
            if number in numbers:
                raise _RowError(f"team number {number} is already on line {numbers[number]}")
        except _RowError as e:
            problems.append((line, str(e)))
            continue
        seen[team] = numbers[number] = line
        out.append(Team(team, row.get("name", ""), number, mp))
    if problems:
        raise FileProblems(str(path), problems)
    if not out:
        raise FileProblems(str(path), [(0, "no teams")])
    return out


def _pair(row: dict, header: list[str], keys: tuple[str, str], read: Callable) -> tuple:
    if keys[0] not in header or (not row.get(keys[0]) and not row.get(keys[1])):
        return None, None
    if not row.get(keys[0]) or not row.get(keys[1]):
        raise _RowError(f"give both {keys[0]} and {keys[1]}, or neither")
    return read(row, keys[0]), read(row, keys[1])


def _match(row: dict, header: list[str], known: set[str]) -> TeamMatch:
    if _EXTRA in row:
        raise _RowError(row[_EXTRA])
    rnd = _number(row, "round", whole=True, low=Fraction(1))
    home, away = row.get("home", ""), row.get("away", "")
    for side, team in (("home", home), ("away", away)):
        if side == "home" and not team:
            raise _RowError("home is empty")
        if team and team not in known:
            raise _RowError(f"{side} team {team} is not in the teams file")
    if home == away:
        raise _RowError(f"team {home} cannot play itself")
    if not away:
        extra = [k for k in header if k.startswith("away_") and row.get(k)]
        extra += [k for k in header if k.startswith("home_") and k != "home_vp" and row.get(k)]
        if extra:
            raise _RowError(f"a bye (away empty) has only home_vp; {', '.join(extra)} given")
        return TeamMatch(rnd, home, None, _number(row, "home_vp"))
    vp = _pair(row, header, ("home_vp", "away_vp"), _number)
    imps = _pair(row, header, MATCH_OPTIONAL[0], lambda r, k: _number(r, k, low=Fraction(0)))
    whole = lambda r, k: _number(r, k, whole=True, low=Fraction(0))  # noqa: E731
    points = _pair(row, header, MATCH_OPTIONAL[1], whole)
    boards = _pair(row, header, MATCH_OPTIONAL[2], whole)
    return TeamMatch(rnd, home, away, *vp, *imps, *points, *boards)


def read_matches(path: Path, teams: list[Team], *, delayed: bool | None = None) -> list[TeamMatch]:
    """The matches and byes played; a team plays at most once a round. A match without VPs
    is accepted only with ``delayed`` and only in the last round (a Swiss one round delayed
    is drawn while that round is at the tables); ``delayed`` None: the command has no such
    option, so the message does not offer it."""
    header, rows = _rows(path, MATCH_COLUMNS)
    known_columns = {*MATCH_COLUMNS, *(k for pair in MATCH_OPTIONAL for k in pair)}
    unknown = [h for h in header if h not in known_columns]
    if unknown:
        raise FileProblems(
            str(path),
            [(1, f"unknown column(s): {', '.join(unknown)}; known are "
                 f"{', '.join(sorted(known_columns))}")],
        )  # fmt: skip
    known = {t.team for t in teams}
    problems: list[tuple[int, str]] = []
    seen: dict[tuple[int, str], int] = {}
    out: list[tuple[int, TeamMatch]] = []
    for line, row in rows:
        try:
            m = _match(row, header, known)
            for team in (m.home, m.away):
                key = (m.round, str(team))
                if team is not None and key in seen:
                    raise _RowError(
                        f"team {team} already plays in round {m.round} (line {seen[key]})"
                    )
        except _RowError as e:
            problems.append((line, str(e)))
            continue
        for team in (m.home, m.away):
            if team is not None:
                seen[(m.round, str(team))] = line
        out.append((line, m))
    last = max((m.round for _, m in out), default=0)
    hint = "" if delayed is None else " (only the round at the tables may wait, with --delayed)"
    for line, m in out:
        if not m.is_scored and (not delayed or m.round != last):
            problems.append((line, f"round {m.round} has no VPs: give both VPs{hint}"))
    if problems:
        raise FileProblems(str(path), sorted(problems))
    return [m for _, m in out]


def missing_rounds(teams: list[Team], matches: list[TeamMatch]) -> list[str]:
    """A line for each team that has no line (no match, no bye) in a round the file has:
    a late joiner, or a line forgotten (then its VPs and the draw are wrong)."""
    rounds = sorted({m.round for m in matches})
    seen = {(m.round, t) for m in matches for t in (m.home, m.away) if t is not None}
    out = []
    for team in teams:
        absent = [r for r in rounds if (r, team.team) not in seen]
        if absent:
            listed = ", ".join(str(r) for r in absent)
            out.append(
                f"{team.team} has no line in round {listed} (no match, no bye): a late joiner, "
                "or a line missing from the matches file?"
            )
    return out
