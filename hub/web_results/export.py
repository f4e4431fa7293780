"""The static export (``bridgehub event export --html DIR``): the results pages as files a
TD uploads to any web host after the session. The index, every board's traveller and every
pair's card, with relative links and their style sheet beside them: nothing is fetched
from elsewhere. After the session nothing is hidden. Exported during it, the pages follow
the live pages' release rules (``hub/report/release.py``: only the travellers of boards
every table has played, outside the hidden rounds, and no ranking before the final one;
issue [MENDS] #25), unless the TD asks for everything (``--all``)."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Mapping
from pathlib import Path

from hub.report.build import build_report
from hub.report.model import ReportModel
from hub.report.release import released, section_releases
from hub.store.store import Store
from hub.web_results.bracket_page import knockout_html
from hub.web_results.pages import CSS, CSS_FILE, ResultsView, SectionPage, all_pages, web_words

log = logging.getLogger(__name__)


def export_view(model: ReportModel, notes: Mapping[str, str] | None = None) -> ResultsView:
    """The pages of the report's rankings, travellers and cards; each section's line above
    its ranking from ``notes`` (by letter), else "Final results"."""
    final = web_words(model.language)["final"]
    sections = tuple(
        SectionPage(
            s.letter,
            s.rankings,
            (notes or {}).get(s.letter, final),
            s.travellers,
            s.cards,
            s.matches,
            s.byes,
            s.team_cards,
            s.cross_table,
            knockout_html(model, s),
        )
        for s in model.sections
    )
    return ResultsView(model, sections)


def export_html(
    store: Store,
    event_id: int,
    directory: Path,
    language: str | None = None,
    everything: bool = False,
) -> list[Path]:
    """Write the pages of ``event_id`` into ``directory`` (made if missing): ``index.html``,
    ``board-A-3.html`` per board, ``card-A-10.html`` per pair, and ``web.css``. Returns the
    files written, the index first. A section whose session is still in play shows what
    the live pages show now (``released``), unless ``everything``: then every result and deal
    so far, warned of (those files are for the TD, or for after the session)."""
    model = build_report(store, event_id, language, double_dummy=True)
    releases = section_releases(store, event_id)
    # still in play: neither are all its session's results in nor its final standings out
    running = sorted(k for k, r in releases.items() if not (r.played or r.complete))
    notes: dict[str, str] = {}
    if running and everything:
        log.warning(
            "section %s is still in play: the exported pages show every result and deal so "
            "far; upload them after the session",
            ", ".join(running),
        )
    elif running:
        model = released(model, releases)
        during = web_words(model.language)["export_during"]
        notes = dict.fromkeys(running, during)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, html in all_pages(export_view(model, notes)).items():
        path = directory / name
        path.write_text(html, encoding="utf-8")
        written.append(path)
    css = directory / CSS_FILE
    shutil.copyfile(CSS, css)
    written.append(css)
    return written
