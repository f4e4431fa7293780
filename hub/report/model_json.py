"""The report model as JSON and back: how the hub's API sends the released results to the
live results pages (``results`` request, docs/api.md), which render them with the same
templates as the printed report."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from hub.report.hands import Hand, Hands
from hub.report.knockout_model import (
    KnockoutReport,
    KnockoutSectionReport,
    KoMatchLine,
    KoPlaceLine,
    KoSegmentCell,
)
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
from hub.report.team_model import (
    ByeLine,
    CrossRow,
    CrossTable,
    MatchBoardRow,
    MatchLine,
    TeamCard,
    TeamCardRow,
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


def _match(d: dict[str, Any]) -> MatchLine:
    return MatchLine(**{**d, "boards": tuple(MatchBoardRow(**b) for b in d["boards"])})


def _team_card(d: dict[str, Any]) -> TeamCard:
    return TeamCard(**{**d, "rows": tuple(TeamCardRow(**r) for r in d["rows"])})


def _cross_table(d: dict[str, Any] | None) -> CrossTable | None:
    if not d:
        return None
    rows = tuple(CrossRow(**{**r, "cells": tuple(r["cells"])}) for r in d["rows"])
    return CrossTable(tuple(d["teams"]), rows)


def _knockout(d: dict[str, Any]) -> KnockoutReport:
    def line(m: dict[str, Any]) -> KoMatchLine:
        return KoMatchLine(**{**m, "segments": tuple(KoSegmentCell(**c) for c in m["segments"])})

    return KnockoutReport(
        d["name"],
        tuple(d["rounds"]),
        tuple(KoPlaceLine(**p) for p in d["places"]),
        tuple(line(m) for m in d["matches"]),
        d["picture"],
        dict(d["words"]),
    )


def _section(d: dict[str, Any]) -> SectionReport:
    if d.get("knockout"):  # a knockout section (issue [KNOCKOUT])
        plain = _section({k: v for k, v in d.items() if k != "knockout"})
        given = {f.name: getattr(plain, f.name) for f in fields(SectionReport)}
        return KnockoutSectionReport(**given, knockout=_knockout(d["knockout"]))
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
        tuple(_match(m) for m in d.get("matches") or ()),  # a hub before [MENDS] #25: none
        tuple(ByeLine(**b) for b in d.get("byes") or ()),
        tuple(_team_card(c) for c in d.get("team_cards") or ()),
        _cross_table(d.get("cross_table")),
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
