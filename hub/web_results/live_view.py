"""The live pages' picture: the standings the hub last published, from its feed (hidden in
the event's last rounds exactly as the result screens hide them: ``ScreenState``), and the
travellers and score cards the hub released (its ``results`` request, docs/api.md). Pure:
no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from hub.report import cells
from hub.report.model import RankingGroup, RankingRow, ReportModel, ScoreCard, SectionReport
from hub.report.team_model import TeamCard
from hub.report.words import words as words_of
from hub.result_screen.state import ScreenState, SectionFeed
from hub.standings.places import overall_ranking
from hub.web_results.bracket_page import bracket_html
from hub.web_results.pages import ResultsView, SectionPage, web_words


def _row(row: Mapping[str, Any], w: Mapping[str, str], label: str | None = None) -> RankingRow:
    """A published row (docs/api.md: ``{pair, label, name, rank, text, points, top}``, or
    a team's ``{team, text, imps}``) as the ranking partial shows it."""
    if "team" in row:
        imps = cells.signed_text(Fraction(str(row.get("imps") or 0)))
        team = int(row["team"])
        return RankingRow(
            row["rank"],
            team,
            label or str(team),
            row.get("name") or "",
            row["text"],
            imps,
            int(row.get("boards") or 0),
        )
    points = ""
    if row.get("top") is not None:
        got, top = Fraction(str(row.get("points") or 0)), Fraction(str(row["top"]))
        points = f"{cells.number_text(got)} / {cells.number_text(top)}"
    text = label or cells.label_in(str(row.get("label") or row["pair"]), w)
    return RankingRow(
        row["rank"],
        int(row["pair"]),
        text,
        row.get("name") or "",
        row["text"],
        points,
        int(row.get("boards") or 0),
    )


def published_groups(sec: SectionFeed, w: Mapping[str, str]) -> tuple[RankingGroup, ...]:
    """A section's published ranking: one group per field (NS first) in a two-winner
    movement, else one; none while hidden or before the first publication."""
    if sec.hidden or not sec.published_round:
        return ()
    fields: dict[str, list[RankingRow]] = {}
    for row in sec.rows:
        fields.setdefault(str(row.get("direction") or ""), []).append(_row(row, w))
    order = sorted(fields, key=lambda d: {"NS": 0, "EW": 1}.get(d, 2))
    return tuple(RankingGroup(w[d.lower()] if d else "", tuple(fields[d])) for d in order)


def section_note(sec: SectionFeed, ww: Mapping[str, str]) -> str:
    """The line above a section's ranking."""
    if not sec.published_round:
        return ww["none_yet"]
    if sec.hidden:
        return ww["hidden"]
    after = ww["after_round"].format(round=sec.published_round, rounds=sec.rounds)
    # the session may be over before its last round's standings are out (a question open):
    # "final" only over the last round's ranking
    final = sec.final and sec.published_round >= sec.rounds
    return f"{ww['final']} ({after.lower()})" if final else after


def overall_group(feeds: list[SectionFeed], w: Mapping[str, str]) -> RankingGroup | None:
    """One ranking of every section of a pairs event (by exact totals, decisions D4)."""
    if len(feeds) < 2 or any(s.kind != "pairs" for s in feeds):
        return None
    if any(s.hidden or not s.published_round for s in feeds):
        return RankingGroup("", ())
    ranked = overall_ranking((s.letter, s.rows) for s in feeds)
    rows = []
    for p in ranked:
        label = f"{p.section}{cells.label_in(str(p.row.get('label') or p.row['pair']), w)}"
        rows.append(replace(_row(p.row, w, label), rank=p.rank, section=p.section))
    return RankingGroup("", tuple(rows))


def _cards(s: SectionReport, sec: SectionFeed | None, complete: bool) -> tuple[ScoreCard, ...]:
    """The cards with their place and total from the published standings (while the
    section is not complete, the hub sends none: so a hidden ranking stays hidden)."""
    if complete or sec is None or sec.hidden:
        return s.cards
    by_pair = {int(r.get("team", r.get("pair", 0))): r for r in sec.rows}
    out = []
    for c in s.cards:
        row = by_pair.get(c.pair)
        out.append(replace(c, rank=row["rank"], total=row["text"]) if row else c)
    return tuple(out)


def _team_cards(s: SectionReport, sec: SectionFeed | None, complete: bool) -> tuple[TeamCard, ...]:
    """The team cards with their place and total from the published standings, as
    ``_cards`` gives the pairs' (none while the ranking is hidden)."""
    if complete or sec is None or sec.hidden:
        return s.team_cards
    by_team = {int(r.get("team", r.get("pair", 0))): r for r in sec.rows}
    out = []
    for c in s.team_cards:
        row = by_team.get(c.team)
        out.append(replace(c, rank=row["rank"], total=row["text"]) if row else c)
    return tuple(out)


def empty_report(state: ScreenState, language: str = "en") -> ReportModel:
    """What the pages show before the hub has answered: the event's name and no results."""
    teams = any(s.kind == "teams" for s in state.sections.values())
    imps = any(s.unit == "IMPs" for s in state.sections.values())
    sections = tuple(SectionReport(k, "", (), (), ()) for k in sorted(state.sections))
    return ReportModel(state.event, "", language, words_of(language), imps, teams, sections)


def live_view(
    state: ScreenState,
    report: ReportModel | None,
    complete: Mapping[str, bool],
    version: int,
    language: str = "en",
) -> ResultsView:
    """The live pages' view: the feed's published rankings, the hub's released results."""
    model = report or empty_report(state, language)
    w, ww = dict(model.words), web_words(model.language)
    pages = []
    for s in model.sections:
        sec = state.sections.get(s.letter)
        groups = published_groups(sec, w) if sec is not None else ()
        note = section_note(sec, ww) if sec is not None else ""
        cards = _cards(s, sec, bool(complete.get(s.letter)))
        team_cards = _team_cards(s, sec, bool(complete.get(s.letter)))
        parts = (s.matches, s.byes, team_cards, s.cross_table)  # as the hub released them
        bracket = bracket_html(sec.knockout if sec is not None else None, w)
        pages.append(SectionPage(s.letter, groups, note, s.travellers, cards, *parts, bracket))
    feeds = [state.sections[k] for k in sorted(state.sections)]
    return ResultsView(model, tuple(pages), overall_group(feeds, w), version)
