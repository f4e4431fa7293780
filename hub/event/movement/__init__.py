"""Movements: who sits where with which boards in each round (Bridgemate RoundData shape)."""

from hub.event.movement.model import Movement, MovementError, MovementRow

__all__ = ["Movement", "MovementError", "MovementRow"]
