"""The results pages, live or exported: the index (rankings, links to every released board
and every pair's card), one page per board's traveller (with the deal, the makeable
contracts and par) and one per pair's score card. Rendered with the printed report's
partials (``hub/report/templates``), so the three agree. Files link to each other by
relative names (``board-A-3.html``), so the same pages work served and as files."""

from __future__ import annotations

from dataclasses import dataclass

from hub.report.model import BoardTraveller, RankingGroup, ReportModel, ScoreCard
from hub.report.render import TEMPLATES, environment
from hub.report.team_model import ByeLine, CrossTable, MatchLine, TeamCard
from hub.web_results.web_words import web_words

CSS_FILE = "web.css"
CSS = TEMPLATES / CSS_FILE
INDEX = "index.html"


def board_file(section: str, board: int) -> str:
    """A board's page: ``board-A-3.html``."""
    return f"board-{section}-{board}.html"


def card_file(section: str, pair: int) -> str:
    """A pair's score card: ``card-A-10.html`` (the hub's pair number)."""
    return f"card-{section}-{pair}.html"


@dataclass(frozen=True, slots=True)
class SectionPage:
    """One section as the pages show it: its ranking groups and the line above them (after
    which round, hidden, final), the travellers and the score cards that may be shown; a
    teams section's matches, byes, team cards (``card-A-8.html``) and cross-table."""

    letter: str
    rankings: tuple[RankingGroup, ...]
    note: str
    travellers: tuple[BoardTraveller, ...]
    cards: tuple[ScoreCard, ...]
    matches: tuple[MatchLine, ...] = ()
    byes: tuple[ByeLine, ...] = ()
    team_cards: tuple[TeamCard, ...] = ()
    cross_table: CrossTable | None = None
    bracket: str = ""  # a knockout section's bracket and places (bracket_page.bracket_html)

    def card_link(self, pair: int, section: str = "") -> str | None:
        """The link to a pair's (or a team's) card, when the section has one for it
        (``section``, a ranking row's own letter, is this one's: the ranking partial's
        call)."""
        mine = any(c.pair == pair for c in self.cards) or self.team_card(pair) is not None
        return card_file(self.letter, pair) if mine else None

    def team_card(self, team: int) -> TeamCard | None:
        return next((c for c in self.team_cards if c.team == team), None)

    def board_link(self, board: int) -> str | None:
        """The link to a board's traveller, when it is shown."""
        shown = any(b.board == board for b in self.travellers)
        return board_file(self.letter, board) if shown else None

    def traveller(self, board: int) -> BoardTraveller | None:
        return next((b for b in self.travellers if b.board == board), None)

    def card(self, pair: int) -> ScoreCard | None:
        return next((c for c in self.cards if c.pair == pair), None)


@dataclass(frozen=True, slots=True)
class ResultsView:
    """Everything the pages show. ``report`` gives the title, the language, its words and
    the scoring (IMPs, teams); ``overall``: one ranking of every section (pairs events with
    several sections; its labels carry the section, ``A7``); ``version``: the live pages'
    number (their script reloads when the server's is newer), None for exported files."""

    report: ReportModel
    sections: tuple[SectionPage, ...]
    overall: RankingGroup | None = None
    version: int | None = None

    def section(self, letter: str) -> SectionPage | None:
        return next((s for s in self.sections if s.letter == letter), None)

    def overall_card_link(self, pair: int, section: str = "") -> str | None:
        """An overall ranking row's link to its pair's card in its own section."""
        s = self.section(section)
        return None if s is None else s.card_link(pair)


def _render(view: ResultsView, template: str, page_title: str, **extra: object) -> str:
    r = view.report
    return (
        environment()
        .get_template(template)
        .render(
            r=r,
            w=dict(r.words),
            ww=web_words(r.language),
            sections=view.sections,
            overall=view.overall,
            overall_card_link=view.overall_card_link,
            live=view.version is not None,
            version=view.version,
            page_title=page_title,
            board_file=board_file,
            card_file=card_file,
            **extra,
        )
    )


def index_page(view: ResultsView) -> str:
    """The rankings, then the links to the boards and the cards."""
    return _render(view, "web_index.html", view.report.words["ranking"])


def board_page(view: ResultsView, section: str, board: int) -> str | None:
    """A board's traveller, or the page saying it is not shown yet; None: no such board."""
    s = view.section(section)
    if s is None or board < 1:
        return None
    shown = sorted(b.board for b in s.travellers)
    before = max((n for n in shown if n < board), default=None)
    after = min((n for n in shown if n > board), default=None)
    title = f"{view.report.words['board']} {board}"
    b = s.traveller(board)
    return _render(view, "web_board.html", title, s=s, b=b, board=board, before=before, after=after)


def card_page(view: ResultsView, section: str, pair: int) -> str | None:
    """A pair's score card, or the page saying it has none yet (no result of the pair yet,
    or the hub's results not in yet: a phone that opens its card early sees it come, live);
    None: no such section."""
    s = view.section(section)
    if s is None or pair < 1:
        return None
    c, tc = s.card(pair), s.team_card(pair)
    w = view.report.words
    if tc is not None:
        title = f"{w['team_card']} {tc.label} {tc.name}".rstrip()
    else:
        title = f"{w['score_card']} {c.label if c is not None else pair}"
    return _render(view, "web_card.html", title, s=s, c=c, tc=tc, pair=pair)


def all_pages(view: ResultsView) -> dict[str, str]:
    """Every page by its file name: the index, each shown board, each pair's (team's)
    card."""
    pages = {INDEX: index_page(view)}
    for s in view.sections:
        for b in s.travellers:
            pages[board_file(s.letter, b.board)] = board_page(view, s.letter, b.board) or ""
        for c in s.cards:
            pages[card_file(s.letter, c.pair)] = card_page(view, s.letter, c.pair) or ""
        for tc in s.team_cards:
            pages[card_file(s.letter, tc.team)] = card_page(view, s.letter, tc.team) or ""
    return pages
