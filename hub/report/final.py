"""The evening's final outputs in one folder: the standings as text, the report as HTML and
PDF, the BWS-shaped CSVs, the scorer's traveller CSV, the JSON backup, and what leaves the
room (issue 14): PBN 2.1 with every result, USEBIO 1.2 for the national body and the
results pages as static HTML (``web/``) for the club's website.

``bridgehub run`` calls ``write_final_outputs`` at the session's end, in a worker thread
(it reads the store and writes files: never on the hub's loop, decisions D17).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from hub.report.build import build_report
from hub.report.model import ReportModel, SectionReport
from hub.report.render import PdfUnavailable, html_to_pdf, render_html
from hub.store.exchange import backup_json, export_bws, write_travellers
from hub.store.store import Store

log = logging.getLogger(__name__)


def standings_text(model: ReportModel) -> str:
    """The ranking of every section as plain text: place, pair (team), names, total,
    points; a teams section's matches after it."""
    w = model.words
    total_word = w["vps"] if model.teams else (w["imps"] if model.imps else w["percent"])
    points_word = w["imps"] if model.teams else ("" if model.imps else w["matchpoints"])
    out = [model.title, model.subtitle, ""]
    who = w["team"] if model.teams else w["pair"]
    for s in model.sections:
        out.append(f"{w['ranking']} · {w['section']} {s.letter}")
        for g in s.rankings:
            if g.title:
                out.append(g.title)
            out.append(f"{w['place']:>6}  {who:<6} {w['names']:<40} {total_word:>8}  {points_word}")
            if not g.rows:
                out.append(f"  {w['no_results']}")
            for r in g.rows:
                points = r.points if (model.teams or not model.imps) else ""
                out.append(f"{r.rank:>6}  {r.label:<6} {r.names:<40} {r.total:>8}  {points}")
            out.append("")
        out += _match_lines(s, w)
    return "\n".join(out).rstrip() + "\n"


def _match_lines(s: SectionReport, w: Mapping[str, str]) -> list[str]:
    """A teams section's matches round by round ("Round 3: 8 Hawks 39 – 11 3 Foxes, 18.73
    – 1.27") and byes, after its ranking (issue [MENDS] #25)."""
    if not s.matches and not s.byes:
        return []
    out = [f"{w['matches']} · {w['section']} {s.letter}"]
    for rnd in sorted({m.round for m in s.matches} | {b.round for b in s.byes}):
        for m in (m for m in s.matches if m.round == rnd):
            imps = f" {m.home_imps} – {m.away_imps} " if m.home_imps else " – "
            vps = f", {m.home_vp} – {m.away_vp}" if m.home_vp else ""
            out.append(f"  {w['round']} {rnd}: {m.home_label}{imps}{m.away_label}{vps}")
        for b in (b for b in s.byes if b.round == rnd):
            out.append(f"  {w['round']} {rnd}: {b.label} {w['bye']}, {b.vp}")
    return [*out, ""]


def write_final_outputs(
    store: Store, event_id: int, folder: Path, language: str | None = None
) -> list[Path]:
    """Write every final output of ``event_id`` into ``folder``; returns the files written.
    Without the PDF library the PDF is skipped and ``report-pdf-skipped.txt`` says why."""
    folder.mkdir(parents=True, exist_ok=True)
    model = build_report(store, event_id, language)
    written: list[Path] = []
    standings = folder / "standings.txt"
    standings.write_text(standings_text(model), encoding="utf-8")
    written.append(standings)
    html = render_html(model)
    page = folder / "report.html"
    page.write_text(html, encoding="utf-8")
    written.append(page)
    try:
        written.append(html_to_pdf(html, folder / "report.pdf"))
    except PdfUnavailable as e:
        log.warning("final outputs: PDF skipped: %s", e)
        note = folder / "report-pdf-skipped.txt"
        note.write_text(f"report.pdf was not written: {e}\n", encoding="utf-8")
        written.append(note)
    written += export_bws(store, event_id, folder / "bws")
    sections = store.sections(event_id)
    for letter in sections:  # pair numbers restart in each section: one file each
        name = "travellers.csv" if len(sections) == 1 else f"travellers-{letter}.csv"
        written.append(write_travellers(store, event_id, folder / name, letter))
    backup = folder / "backup.json"
    backup.write_text(backup_json(store, event_id), encoding="utf-8")
    written.append(backup)
    return written + _published(store, event_id, folder, language)


def _published(store: Store, event_id: int, folder: Path, language: str | None) -> list[Path]:
    """PBN, USEBIO and the static pages (imported here: they import the report)."""
    from hub.export.pbn import write_pbn
    from hub.export.usebio import write_usebio
    from hub.web_results.export import export_html

    written = [
        write_pbn(store, event_id, folder / "results.pbn"),
        write_usebio(store, event_id, folder / "usebio.xml"),
    ]
    return written + export_html(store, event_id, folder / "web", language)
