"""A knockout section on the results pages (issue [KNOCKOUT]): its bracket as a picture
and its final places so far, from the bracket the hub's feed last sent (its ``knockout``
events and the snapshot's ``sections.<letter>.knockout``, folded by the result screen's
state: ``bracket_text.bracket_of``). The live pages swap their ``<main>`` when the
server's version goes up, so the picture follows every result. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from hub.report.bracket_picture import bracket_svg
from hub.report.knockout_model import KnockoutSectionReport
from hub.report.model import ReportModel, SectionReport
from hub.report.render import environment


def bracket_html(bracket: Mapping[str, Any] | None, words: Mapping[str, str]) -> Markup:
    """The section's bracket partial (``_bracket.html``); empty for no bracket."""
    if not bracket:
        return Markup("")
    template = environment().get_template("_bracket.html")
    svg = Markup(bracket_svg(bracket))  # every text in it escaped (bracket_picture)
    return Markup(template.render(k=bracket, svg=svg, w=dict(words)))


def knockout_html(model: ReportModel, section: SectionReport) -> Markup:
    """A knockout section of the released results (the static export): the printed
    report's partial (``_knockout.html``: places, picture, matches); empty for another
    section."""
    if not isinstance(section, KnockoutSectionReport) or section.knockout is None:
        return Markup("")
    template = environment().get_template("_knockout.html")
    return Markup(template.render(s=section, k=section.knockout, w=dict(model.words), r=model))
