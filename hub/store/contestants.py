"""The pairs and teams of an event and their players (names, member numbers)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from hub.store import schema as t
from hub.store.part import StorePart
from hub.store.values import StoreError


class ContestantStore(StorePart):
    """Part of ``Store``: contestants and their players. Like ``Store``: worker threads and
    the command line, never the hub's loop."""

    def set_player(
        self,
        event_id: int,
        section: str,
        pair: int,
        index: int,
        *,
        name: str | None,
        number: str | None,
        actor: str = "TD",
    ) -> None:
        """Set one player of a pair (index 0 or 1), creating the pair if needed. Audited."""
        with Session(self.engine) as db, db.begin():
            c = self._pair(db, event_id, section, pair)
            if c is None:
                c = self._new_pair(db, event_id, section, pair)
            players = [dict(p) for p in (c.players or [])]
            while len(players) <= index:
                players.append({"name": ""})
            if name is not None:
                players[index]["name"] = name
            if number is not None:
                players[index]["number"] = number
            c.players = players
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="player_set",
                    detail={"section": section, "pair": pair, "seat": index},
                )
            )

    def set_players(
        self,
        event_id: int,
        section: str,
        pair: int,
        players: list[dict[str, str]],
        *,
        action: str = "pair_edited",
        actor: str = "TD",
        create: bool = False,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Replace a pair's players (``[{name, number?}]``): the director's edit, a late pair
        (``create``: the pair must be new) or a substitute. Audited with the players before
        and after, so earlier rounds keep who played them."""
        with Session(self.engine) as db, db.begin():
            c = self._pair(db, event_id, section, pair)
            if c is None and not create:
                raise StoreError(f"section {section} has no pair {pair}")
            if c is not None and create:
                raise StoreError(f"section {section} already has a pair {pair}")
            if c is None:
                c = self._new_pair(db, event_id, section, pair)
            before = [dict(p) for p in (c.players or [])]
            c.players = [{k: v for k, v in p.items() if v is not None} for p in players]
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action=action,
                    detail={"section": section, "pair": pair, "before": before}
                    | {"after": c.players}
                    | (detail or {}),
                )
            )

    @staticmethod
    def _new_pair(db: Session, event_id: int, section: str, pair: int) -> t.Contestant:
        """A pair the event file did not list (named at the table or by the director)."""
        c = t.Contestant(
            event_id=event_id,
            section=section,
            kind="pair",
            number=pair,
            name=None,
            not_competing=False,
            players=[],
        )
        db.add(c)
        return c

    @staticmethod
    def _pair(db: Session, event_id: int, section: str, pair: int) -> t.Contestant | None:
        return db.scalar(
            select(t.Contestant).where(
                t.Contestant.event_id == event_id,
                t.Contestant.section == section,
                t.Contestant.kind == "pair",
                t.Contestant.number == pair,
            )
        )

    def contestants(self, event_id: int, section: str | None = None) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            q = select(t.Contestant).where(t.Contestant.event_id == event_id)
            if section:
                q = q.where(t.Contestant.section == section)
            return [
                {
                    "section": c.section,
                    "kind": c.kind,
                    "number": c.number,
                    "name": c.name,
                    "not_competing": c.not_competing,
                    "players": c.players,
                }
                for c in db.scalars(q.order_by(t.Contestant.section, t.Contestant.number))
            ]
