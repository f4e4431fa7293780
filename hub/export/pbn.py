"""PBN 2.1 export of a whole event (issue [PUBLISH]): every board of every section with its
deal, a ``ScoreTable`` with every result of the board and the section's ``TotalScoreTable``,
for the club website and any program that reads PBN (``bridgehub event export --pbn FILE``).

The results and totals are the hub's own: the store's live results scored by the standings'
rebuild (``hub/standings/rebuild.py``), as the printed report reads them
(``hub/report/build.py``); a stored line scoring cannot use (a sit-out's pair 0) is left
out, as there. The text is made by ``hub/export/pbn_format.py`` from plain values.

Choices the standard leaves open (PBN 2.1, www.tistis.nl/pbn/pbn_v21.txt):

- One game per board and section, in the event file's order; the tags of §3.4 (players,
  declarer, contract and result ``?``: a board of an event is played by many pairs),
  ``Section`` and ``Competition`` (§4). A board without a hand record has the deal
  ``N:- - - -`` (every hand unknown, §3.4).
- ``ScoreTable`` (§5.9) columns ``Table Round PairId_NS PairId_EW Contract Declarer Result
  Lead Score_NS Score_EW`` and ``MP_NS MP_EW Percentage_NS Percentage_EW`` at matchpoints,
  ``IMP_NS IMP_EW`` at cross-IMPs and Butler (teams: the line's IMPs against the other
  room of its match, a three-way's a round apart; ``-`` when that room has no score). A
  plus score is written on its side's column and ``-`` (irrelevant, §5.2) on the other, as
  travellers show it. An artificial score (Law 12C2) has ``-`` for contract, declarer,
  result, lead and score (§5.9) and its points marked ``^`` (§5.2); a weighted score (Law
  12C1(c)) is written the same way, its points unmarked (assigned, not artificial).
- ``TotalScoreTable`` (§5.10) once per section, on the section's first board (one section:
  once in the file): ``Rank PairId [Direction] TotalMP TotalPercentage NrBoards Names`` (at
  IMPs ``TotalIMP``; teams ``TotalVP TotalIMP``). ``Rank`` is the best place of a tie;
  ``PairId`` the room's number (NS 3 and EW 3 are told apart by ``Direction`` in a
  two-winner field); ``Names`` last, so that a reader splitting a row at spaces still finds
  every other column. Confirmed penalties are not taken off (the report's ranking). A
  knockout's: ``Rank PairId Names`` by its final places (issue [KNOCKOUT]); its matches
  have no PBN table (docs/exports.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from hub.event.event_file import EventFile, Scoring
from hub.event.hand_records import section_deals
from hub.event.movement.rooms import other_room
from hub.event.pair_labels import PairLabels
from hub.export.board_lines import BoardLines, board_lines, first_result_day, scored_lines
from hub.export.pbn_format import (
    ARTIFICIAL,
    IRRELEVANT,
    UNKNOWN,
    Align,
    Column,
    Game,
    Table,
    pbn_text,
    string_token,
)
from hub.report.cells import number_text
from hub.report.knockout_build import knockout_results
from hub.report.knockout_model import KnockoutResults
from hub.standings.rebuild import SectionView, rebuild
from hub.store.store import Store, StoredResult
from scoring.board import board_dealer, board_vulnerability
from scoring.board_score import ScoredLine
from scoring.contract import parse_contract
from scoring.deal import normalise_card
from scoring.errors import ScoringInputError
from scoring.imps import imps
from scoring.numbers import display
from scoring.traveller import TravellerLine

__all__ = ["event_games", "pbn_text", "write_pbn"]

NO_DEAL = "N:- - - -"
SCORING_TAG = {  # PBN 2.1 §3.4 Scoring: the basic system, then its modifier
    Scoring.MP: "MatchPoints",
    Scoring.XIMP: "IMP",
    Scoring.BUTLER: "IMP;Butler",
    Scoring.TEAMS: "IMP",
}

L, R = Align.LEFT, Align.RIGHT
PLAY_COLUMNS = (
    Column("Table"),
    Column("Round"),
    Column("PairId_NS"),
    Column("PairId_EW"),
    Column("Contract", L),
    Column("Declarer"),
    Column("Result"),
    Column("Lead", L),
    Column("Score_NS"),
    Column("Score_EW"),
)
MP_COLUMNS = (Column("MP_NS"), Column("MP_EW"), Column("Percentage_NS"), Column("Percentage_EW"))
IMP_COLUMNS = (Column("IMP_NS"), Column("IMP_EW"))


def write_pbn(store: Store, event_id: int, path: Path) -> Path:
    """Write event ``event_id`` as a PBN 2.1 file at ``path`` (UTF-8, CRLF); returns it."""
    text = pbn_text(event_games(store, event_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    return path


def event_games(store: Store, event_id: int) -> list[Game]:
    """Every section's boards as PBN games, session by session, board by board."""
    event = store.event(event_id)
    views = rebuild(store, event_id)
    deals = section_deals(
        event, {s: store.hand_records(event_id, s) for s in range(len(event.sessions))}
    )
    games: list[Game] = []
    played = first_result_day(store, event_id)  # a session without a date: when it was played
    for session in event.sessions:
        day = session.date or played
        date = day.strftime("%Y.%m.%d") if day else "????.??.??"
        for section in session.sections:
            view = views.get(section.letter)
            if view is None:
                continue
            head = (
                ("Event", event.event.name),
                ("Site", event.event.venue or UNKNOWN),
                ("Date", date),
            )
            results = store.live_results(event_id, section.letter)
            players = _names(store.contestants(event_id, section.letter))
            ko = None
            if event.rules.scoring is Scoring.TEAMS:
                ko = knockout_results(store, event_id, section.letter, view.movement)
            games += section_games(event, view, results, players, head, deals, ko)
    return games


def section_games(
    event: EventFile,
    view: SectionView,
    results: list[StoredResult],
    names: Mapping[int, str],
    head: tuple[tuple[str, str], ...],
    deals: Mapping[tuple[str, int], str],
    knockout: KnockoutResults | None = None,
) -> list[Game]:
    """One game per board of the section (the movement's boards and any with a result); a
    knockout's ``TotalScoreTable`` holds its final places (``knockout_totals``)."""
    letter = view.section
    labels = PairLabels.of(view.movement, letter)
    scoring = event.rules.scoring
    mp = scoring is Scoring.MP
    lines = board_lines(results, "PBN export")
    points = _team_points(view, lines) if scoring is Scoring.TEAMS else _pair_points(view, mp)
    extra = MP_COLUMNS if mp else IMP_COLUMNS
    boards = sorted(
        {b for row in view.movement.rows if row.section == letter for b in row.boards} | set(lines)
    )
    room = _room_number(labels)
    games = []
    for i, board in enumerate(boards):
        tags = (
            *head,
            ("Board", str(board)),
            ("Dealer", board_dealer(board).name),
            ("Vulnerable", board_vulnerability(board).value),
            ("Deal", deals.get((letter, board), NO_DEAL)),
            ("Scoring", SCORING_TAG[scoring]),
            ("Section", letter),
            ("Competition", "Teams" if scoring is Scoring.TEAMS else "Pairs"),
        )
        tables = []
        if i == 0 and knockout is not None:
            tables.append(knockout_totals(knockout, names))
        elif i == 0:
            tables.append(total_table(view, names, labels, scoring))
        rows = lines.get(board, [])
        if rows:
            tables.append(score_table(rows, room, extra, points))
        games.append(Game(tags, tuple(tables)))
    return games


Points = Callable[[StoredResult, TravellerLine], list[str]]
"""A result's cells of the scoring's own columns (MPs and percentages, or IMPs)."""


def score_table(
    rows: list[tuple[StoredResult, TravellerLine]],
    room: Callable[[int], str],
    extra: tuple[Column, ...],
    points: Points,
) -> Table:
    """A board's ``ScoreTable`` (PBN 2.1 §5.9): every result the standings use, by table
    and round (``board_lines``)."""
    out = []
    for r, read in rows:
        ids = [str(r.table), str(r.round), room(r.ns_pair), room(r.ew_pair)]
        out.append((*ids, *_play_cells(r, read), *points(r, read)))
    return Table("ScoreTable", PLAY_COLUMNS + extra, tuple(out))


def _pair_points(view: SectionView, mp: bool) -> Points:
    """Pairs: each line's points as the section's scored boards give them (``mp``: the
    matchpoint columns, else the IMP ones, whatever the boards scored so far)."""
    scored = scored_lines(view)

    def points(r: StoredResult, read: TravellerLine) -> list[str]:
        return _points_cells(scored.get((r.board, r.round, r.ns_pair, r.ew_pair)), read, mp)

    return points


def _team_points(view: SectionView, lines: BoardLines) -> Points:
    """Teams: each line's IMPs against the other room of its match (the partner table in
    the same round, or a three-way's other room a round apart; the same board), as the
    match scoring compares them (``teams_view``); ``-`` when one room has no score."""
    layout = view.movement.layout
    score = {(r.table, r.round, r.board): read.score_ns for g in lines.values() for r, read in g}

    def points(r: StoredResult, read: TravellerLine) -> list[str]:
        room = other_room(layout, r.table, r.round)
        other = None if room is None else score.get((*room, r.board))
        if read.score_ns is None or other is None:
            return [IRRELEVANT, IRRELEVANT]
        won = imps(read.score_ns - other)
        return [str(won), str(-won)]

    return points


def _play_cells(r: StoredResult, read: TravellerLine) -> list[str]:
    """Contract, declarer, tricks, lead and the two sides' scores of one result."""
    if r.adjusted:
        return [IRRELEVANT] * 6
    score = _score_cells(read.score_ns)
    if not r.contract:  # a score without its contract (a traveller file's)
        return [UNKNOWN] * 4 + score
    contract = parse_contract(r.contract)
    if contract is None:
        return ["Pass", IRRELEVANT, IRRELEVANT, IRRELEVANT, *score]
    tricks = UNKNOWN if r.tricks is None else str(r.tricks)
    return [str(contract), r.declarer or UNKNOWN, tricks, _lead(r.lead), *score]


def _lead(lead: str | None) -> str:
    """The opening lead as a PBN card, suit then rank (``h10`` → ``HT``); ``?`` when
    not entered or not a card."""
    try:
        return normalise_card(lead) if lead else UNKNOWN
    except ScoringInputError:
        return UNKNOWN


def _score_cells(score_ns: int | None) -> list[str]:
    """A plus score on its side's column, ``-`` on the other; a zero on both."""
    if score_ns is None:
        return [UNKNOWN, UNKNOWN]
    if score_ns == 0:
        return ["0", "0"]
    return [str(score_ns), IRRELEVANT] if score_ns > 0 else [IRRELEVANT, str(-score_ns)]


def _points_cells(sl: ScoredLine | None, read: TravellerLine, mp: bool) -> list[str]:
    """MPs and percentages (or IMPs) of both sides, ``^`` before an artificial score's."""
    if sl is None:
        return [UNKNOWN] * (4 if mp else 2)
    mark = ARTIFICIAL if read.artificial is not None and not read.artificial.weighted else ""
    if mp:
        values = [
            number_text(sl.ns_mp or 0),
            number_text(sl.ew_mp or 0),
            display(sl.ns_score, 2),
            display(sl.ew_score, 2),
        ]
    else:
        values = [number_text(sl.ns_score), number_text(sl.ew_score)]
    return [mark + v for v in values]


def total_table(
    view: SectionView, names: Mapping[int, str], labels: PairLabels, scoring: Scoring
) -> Table:
    """The section's ``TotalScoreTable`` (PBN 2.1 §5.10), as its standings rank it."""
    if scoring is Scoring.TEAMS:
        return _team_totals(view, names)
    two_fields = any(direction is not None for direction in view.standings)
    mp = scoring is Scoring.MP  # the columns, even before any board is scored
    order = {"NS": 0, "EW": 1}
    room = _room_number(labels)
    rows = []
    for direction, table in sorted(
        view.standings.items(), key=lambda kv: order.get(kv[0] or "", 2)
    ):
        for s in table:
            t = s.total
            cells = [str(s.placed.place), room(t.pair.number)]
            if two_fields:
                cells.append(direction or UNKNOWN)
            if mp:
                cells += [number_text(t.points), display(t.total, 2)]
            else:
                cells.append(display(t.total, 2))
            rows.append((*cells, str(t.boards), _names_token(names, t.pair.number)))
    columns = [Column("Rank"), Column("PairId")]
    if two_fields:
        columns.append(Column("Direction", L))
    columns += [Column("TotalMP"), Column("TotalPercentage")] if mp else [Column("TotalIMP")]
    columns += [Column("NrBoards"), Column("Names", L)]
    return Table("TotalScoreTable", tuple(columns), tuple(rows))


def _team_totals(view: SectionView, names: Mapping[int, str]) -> Table:
    """Teams: victory points and net IMPs (``TotalVP`` a column of our own, §5.2)."""
    rows = []
    for ts in view.team_standings:
        rec = ts.record
        team = int(str(rec.team))
        net = Fraction(rec.imps_won - rec.imps_lost)
        vp, imps = display(Fraction(rec.vp), 2), display(net, 2)
        rows.append((str(ts.placed.place), str(team), vp, imps, _names_token(names, team)))
    columns = (Column("Rank"), Column("PairId"), Column("TotalVP"), Column("TotalIMP"))
    return Table("TotalScoreTable", (*columns, Column("Names", L)), tuple(rows))


def knockout_totals(knockout: KnockoutResults, names: Mapping[int, str]) -> Table:
    """A knockout's ``TotalScoreTable``: ``Rank PairId Names`` by final place, ``Rank`` the
    first place of a shared range ("5-8" → 5, as a tie); no totals (a knockout has no VPs,
    and PBN has no table for its matches: docs/exports.md)."""
    rows = tuple((str(p.first), p.team, _names_token(names, int(p.team))) for p in knockout.places)
    columns = (Column("Rank"), Column("PairId"), Column("Names", L))
    return Table("TotalScoreTable", columns, rows)


def _room_number(labels: PairLabels) -> Callable[[int], str]:
    """A pair's number as the room knows it (EW 3 is 3, not the hub's internal 10)."""

    def number(pair: int) -> str:
        return str(labels.to_room(pair)[1]) if pair > 0 else IRRELEVANT

    return number


def _names(contestants: list[dict[str, Any]]) -> dict[int, str]:
    """PBN 2.1 §5.9 ``<names>``: a team's or partnership's name, else the players' names
    ``;`` apart."""
    out: dict[int, str] = {}
    for c in contestants:
        players = ";".join(p["name"] for p in c.get("players") or [] if p.get("name"))
        out[int(c["number"])] = c.get("name") or players
    return out


def _names_token(names: Mapping[int, str], number: int) -> str:
    text = names.get(number, "")
    return string_token(text) if text else UNKNOWN
