"""The static export (``bridgehub event export --html DIR``): the results pages as files a
TD uploads to any web host after the session. The index, every board's traveller and every
pair's card, with relative links and their style sheet beside them: nothing is fetched
from elsewhere. The report is the final result, so nothing is hidden."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from hub.report.build import build_report
from hub.report.model import ReportModel
from hub.report.release import section_releases
from hub.store.store import Store
from hub.web_results.pages import CSS, CSS_FILE, ResultsView, SectionPage, all_pages, web_words

log = logging.getLogger(__name__)


def export_view(model: ReportModel) -> ResultsView:
    """The pages of a finished event: the report's own rankings, travellers and cards."""
    final = web_words(model.language)["final"]
    sections = tuple(
        SectionPage(s.letter, s.rankings, final, s.travellers, s.cards) for s in model.sections
    )
    return ResultsView(model, sections)


def export_html(
    store: Store, event_id: int, directory: Path, language: str | None = None
) -> list[Path]:
    """Write the pages of ``event_id`` into ``directory`` (made if missing): ``index.html``,
    ``board-A-3.html`` per board, ``card-A-10.html`` per pair, and ``web.css``. Returns the
    files written, the index first. Everything is shown: exported while boards are still
    to be played, the files are warned of (they are for after the session)."""
    model = build_report(store, event_id, language, double_dummy=True)
    releases = section_releases(store, event_id).items()
    open_ = sorted(k for k, r in releases if not (r.played or r.complete))
    if open_:
        log.warning(
            "section %s still has boards without results: the exported pages show every "
            "result and deal so far; upload them after the session",
            ", ".join(open_),
        )
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, html in all_pages(export_view(model)).items():
        path = directory / name
        path.write_text(html, encoding="utf-8")
        written.append(path)
    css = directory / CSS_FILE
    shutil.copyfile(CSS, css)
    written.append(css)
    return written
