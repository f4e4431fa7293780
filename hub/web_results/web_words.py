"""The results pages' own words, in every language of the event file (en, sv, cs, pl; issue
[MENDS] #25: Czech and Polish fell back to English). The report's words
(``hub/report/words``) cover the tables; these are the lines only the pages have. Each
language holds every key (tests/web/test_web_export_release.py); ``{round}``, ``{rounds}``
and ``{pair}`` are filled in by the pages."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

_EN = {
    "overall": "Overall",
    "live": "live",
    "after_round": "After round {round} of {rounds}",
    "final": "Final results",
    "none_yet": "No standings published yet.",
    "hidden": "The ranking is hidden during the last rounds: it comes with the final results.",
    "no_travellers": "No traveller yet: a board is shown when every table has played it.",
    "not_released": "This traveller is not shown yet: the board is still in play at "
    "another table, or the event hides it until the final results.",
    "waiting": "Waiting for the hub's results…",
    "no_card": "No score card for pair {pair} yet: it comes with the pair's first result.",
    "makeable": "Makeable",
    "par": "Par",
    "no_double_dummy": "",
    "export_during": "Exported during the session: the ranking comes with the final "
    "results, and a board is shown when every table has played it.",
}
_SV = {
    **_EN,
    "overall": "Totalt",
    "live": "live",
    "after_round": "Efter rond {round} av {rounds}",
    "final": "Slutresultat",
    "none_yet": "Ingen resultatlista publicerad ännu.",
    "hidden": "Resultatlistan visas inte under de sista ronderna: den kommer med slutresultatet.",
    "no_travellers": "Ingen bricka ännu: en bricka visas när alla bord har spelat den.",
    "not_released": "Brickan visas inte ännu: den spelas fortfarande vid ett annat bord, "
    "eller så döljs den till slutresultatet.",
    "waiting": "Väntar på resultaten…",
    "no_card": "Inget protokoll för par {pair} ännu: det kommer med parets första resultat.",
    "makeable": "Går hem",
    "par": "Par",
    "export_during": "Exporterad under tävlingen: resultatlistan kommer med slutresultatet, "
    "och en bricka visas när alla bord har spelat den.",
}
_CS = {  # the report's Czech words: rozdání, kolo, protokol (hub/report/words/cs.py)
    **_EN,
    "overall": "Celkově",
    "live": "živě",
    "after_round": "Po {round}. kole z {rounds}",
    "final": "Konečné výsledky",
    "none_yet": "Zatím nebylo zveřejněno žádné pořadí.",
    "hidden": "Pořadí je v posledních kolech skryté: zveřejní se s konečnými výsledky.",
    "no_travellers": "Zatím žádný protokol rozdání: rozdání se ukáže, až ho odehrají "
    "všechny stoly.",
    "not_released": "Tento protokol se zatím neukazuje: rozdání se ještě hraje u jiného "
    "stolu, nebo ho soutěž skrývá až do konečných výsledků.",
    "waiting": "Čeká se na výsledky…",
    "no_card": "Protokol páru {pair} zatím není: objeví se s prvním výsledkem páru.",
    "makeable": "Splnitelné",
    "par": "Par",
    "export_during": "Exportováno během soutěže: pořadí přijde s konečnými výsledky a "
    "rozdání se ukáže, až ho odehrají všechny stoly.",
}
_PL = {  # the report's Polish words: rozdanie, runda, historia (hub/report/words/pl.py)
    **_EN,
    "overall": "Łącznie",
    "live": "na żywo",
    "after_round": "Po rundzie {round} z {rounds}",
    "final": "Wyniki końcowe",
    "none_yet": "Nie opublikowano jeszcze klasyfikacji.",
    "hidden": "Klasyfikacja jest ukryta w ostatnich rundach: pojawi się z wynikami końcowymi.",
    "no_travellers": "Nie ma jeszcze protokołu: rozdanie pojawi się, gdy rozegrają je "
    "wszystkie stoły.",
    "not_released": "Ten protokół nie jest jeszcze pokazywany: rozdanie wciąż jest grane "
    "przy innym stole albo turniej ukrywa je do wyników końcowych.",
    "waiting": "Czekamy na wyniki…",
    "no_card": "Nie ma jeszcze historii pary {pair}: pojawi się z pierwszym wynikiem pary.",
    "makeable": "Do ugrania",
    "par": "Par",
    "export_during": "Wyeksportowano w trakcie turnieju: klasyfikacja pojawi się z "
    "wynikami końcowymi, a rozdanie, gdy rozegrają je wszystkie stoły.",
}
WEB_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"en": _EN, "sv": _SV, "cs": _CS, "pl": _PL}
)


def web_words(language: str) -> Mapping[str, str]:
    """The pages' own words (the report's words cover the tables); English where missing."""
    return WEB_WORDS.get(language, _EN)
