"""Read-only requests of the hub API (docs/api.md "Read-only requests"): what the live
results pages (``bridgehub web``) need beyond the feed. ``results``: the event's results as
the report model (``hub/report/model.py``) with only what may be shown now
(``hub/report/release.py``): finished boards' travellers with their deals, the score cards'
lines of those boards. Served to any client that gets the feed, no session needed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hub.api.server import CommandError
from hub.store.store import Store

REQUESTS = ("results",)


class ResultRequests:
    """Answers the read-only requests of one event from its store (in a worker thread:
    store reads never run on the hub's loop, decisions D17)."""

    def __init__(self, store: Store, event_id: int, version: Callable[[], int] = lambda: 0) -> None:
        """``version``: a number that changes whenever the results may have (the feed's
        sequence): an answer is built once per version and language, one at a time, so
        pages asking in a loop never hold the store's threads (decisions D17, D20)."""
        self.store = store
        self.event_id = event_id
        self.version = version
        self._building = asyncio.Lock()
        self._answers: dict[str | None, tuple[int, dict[str, Any]]] = {}

    async def __call__(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name != "results":
            raise CommandError(f"no request {name[:40]!r}: requests are {', '.join(REQUESTS)}")
        language = args.get("language")
        if language is not None and not isinstance(language, str):
            raise CommandError("language: needs a language code such as 'en'")
        unknown = sorted(set(args) - {"language"})
        if unknown:
            raise CommandError(f"results takes only 'language', not {', '.join(unknown)}")
        async with self._building:  # one build at a time; the others take its answer
            version = self.version()
            kept = self._answers.get(language)
            if kept is not None and kept[0] == version:
                return kept[1]
            answer = await asyncio.to_thread(self.results, language)
            self._answers[language] = (version, answer)
            return answer

    def results(self, language: str | None = None) -> dict[str, Any]:
        """``{report, complete: {section: bool}}``: the released report model as JSON.
        The report's modules load on the first request, not when the hub starts (issue 12:
        a restarted hub answers its first terminal in under 2 s)."""
        from hub.report.build import build_report
        from hub.report.model_json import model_to_json
        from hub.report.release import released, section_releases

        try:
            model = build_report(self.store, self.event_id, language, double_dummy=True)
        except ValueError as e:  # a language without words
            raise CommandError(str(e)) from None
        releases = section_releases(self.store, self.event_id)
        return {
            "report": model_to_json(released(model, releases)),
            "complete": {k: r.complete for k, r in releases.items()},
        }
