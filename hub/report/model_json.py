"""The report model as JSON and back: how the hub's API sends the released results to the
live results pages (``results`` request, docs/api.md), which render them with the same
templates as the printed report."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from hub.report.hands import Hand, Hands
from hub.report.model import (
    BoardTraveller,
    CardRow,
    RankingGroup,
    RankingRow,
    ReportModel,
    ScoreCard,
    SectionReport,
    TravellerRow,
)


def model_to_json(model: ReportModel) -> dict[str, Any]:
    """Plain JSON values (objects, lists, text, numbers)."""
    out = asdict(model)
    out["words"] = dict(model.words)
    return out


def _hands(d: dict[str, Any] | None) -> Hands | None:
    if not d:
        return None
    return Hands(*(Hand(**d[seat]) for seat in ("north", "east", "south", "west")))


def _traveller(d: dict[str, Any]) -> BoardTraveller:
    return BoardTraveller(
        d["board"],
        d["dealer"],
        d["vulnerable"],
        tuple(TravellerRow(**row) for row in d["rows"]),
        _hands(d.get("hands")),
        tuple(d.get("makeable") or ()),
        d.get("par") or "",
    )


def _section(d: dict[str, Any]) -> SectionReport:
    return SectionReport(
        d["letter"],
        d["movement"],
        tuple(
            RankingGroup(g["title"], tuple(RankingRow(**r) for r in g["rows"]))
            for g in d["rankings"]
        ),
        tuple(_traveller(b) for b in d["travellers"]),
        tuple(
            ScoreCard(**{**c, "rows": tuple(CardRow(**r) for r in c["rows"])}) for c in d["cards"]
        ),
    )


def model_from_json(d: dict[str, Any]) -> ReportModel:
    """The model ``model_to_json`` gave (``KeyError``/``TypeError`` for anything else)."""
    return ReportModel(
        d["title"],
        d["subtitle"],
        d["language"],
        dict(d["words"]),
        bool(d["imps"]),
        bool(d["teams"]),
        tuple(_section(s) for s in d["sections"]),
    )
