"""Fault injection on a simulated line: flipped bits, dropped bytes, duplicated and
delayed chunks. Seeded, so a failing run can be replayed."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Faults:
    bit_flip: float = 0.0
    drop_byte: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    max_delay_s: float = 0.05
    seed: int = 1
    rng: random.Random = field(init=False)
    counts: dict[str, int] = field(
        default_factory=lambda: {"bit_flip": 0, "drop_byte": 0, "duplicate": 0, "delay": 0}
    )

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def active(self) -> bool:
        return any((self.bit_flip, self.drop_byte, self.duplicate, self.delay))

    def apply(self, data: bytes) -> tuple[bytes, float]:
        """The bytes as the line delivers them, and a delay before they arrive."""
        if not self.active or not data:
            return data, 0.0
        out = bytearray()
        for b in data:
            if self.rng.random() < self.drop_byte:
                self.counts["drop_byte"] += 1
                continue
            if self.rng.random() < self.bit_flip:
                b ^= 1 << self.rng.randrange(8)
                self.counts["bit_flip"] += 1
            out.append(b)
        if self.rng.random() < self.duplicate:
            self.counts["duplicate"] += 1
            out += bytes(out)
        wait = 0.0
        if self.rng.random() < self.delay:
            self.counts["delay"] += 1
            wait = self.rng.random() * self.max_delay_s
        return bytes(out), wait
