"""The printed report's words, one small table per language (``en``, ``sv``, ``cs``, ``pl``).

Each module holds ``WORDS``: the same keys as English. The Swedish and Czech words are those
the seeds' conditions of contest use (seeds 002 and 004: "bricka", "resultatlista",
"placering"; seed 003: "rozdání", "kolo", "výsledek"); Polish follows the usage of Polish
club scoring programs (there is no Polish seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from hub.report.words import cs, en, pl, sv

LANGUAGES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"en": en.WORDS, "sv": sv.WORDS, "cs": cs.WORDS, "pl": pl.WORDS}
)


def words(language: str) -> Mapping[str, str]:
    """The words of ``language``; refused with the languages there are."""
    try:
        return LANGUAGES[language]
    except KeyError:
        raise ValueError(
            f"no report words for language {language!r}: use one of {', '.join(LANGUAGES)}"
        ) from None
