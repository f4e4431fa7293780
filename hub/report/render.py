"""Render the report model: HTML from a Jinja2 template, PDF from that HTML with WeasyPrint
(HTML and CSS to PDF; it needs Debian's pango libraries). The HTML stands alone (its style
inline), so it prints from a browser as it is."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from hub.report.model import ReportModel

TEMPLATES = Path(__file__).parent / "templates"


class PdfUnavailable(RuntimeError):
    """The PDF library is missing; the message says how to install it."""


def red_suits(text: object) -> Markup:
    """A cell with hearts and diamonds in red, as on a printed traveller (escaped first)."""
    cell = str(escape(text))
    for suit in ("♥", "♦"):
        cell = cell.replace(suit, f'<span class="red">{suit}</span>')
    return Markup(cell)  # built from the escaped text


@cache
def environment() -> Environment:
    """The templates' one environment: the printed report and the results web pages (live
    and exported, ``hub/web_results/``) render the same partials (``_ranking.html``,
    ``_traveller.html``, ``_card.html``, ``_hands.html``) through it."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,  # a missing word is an error, never an empty cell
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["suits"] = red_suits
    return env


def render_html(model: ReportModel) -> str:
    """The whole report as one HTML document (ranking, travellers, score cards)."""
    css = (TEMPLATES / "report.css").read_text(encoding="utf-8")
    template = environment().get_template("report.html")
    return template.render(r=model, w=dict(model.words), css=css)


def html_to_pdf(html: str, path: Path) -> Path:
    """Write ``html`` as a PDF at ``path``; ``PdfUnavailable`` when WeasyPrint cannot load."""
    try:
        import weasyprint
    except (ImportError, OSError) as e:  # OSError: the pango libraries are missing
        raise PdfUnavailable(
            "the PDF report needs WeasyPrint: pip install 'bridgehub[report]' "
            f"(on Debian also apt-get install libpango-1.0-0 libpangoft2-1.0-0) ({e})"
        ) from None
    path.parent.mkdir(parents=True, exist_ok=True)
    weasyprint.HTML(string=html, base_url=str(TEMPLATES)).write_pdf(path)
    return path
