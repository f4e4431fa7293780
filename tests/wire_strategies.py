"""Hypothesis strategies built from the message definitions themselves."""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from hypothesis import strategies as st

from drivers.protocol.codec import Int, ListOf, Str


def for_codec(codec):
    if isinstance(codec, Int):
        return st.integers(codec.lo, codec.hi)
    if isinstance(codec, Str):
        return st.text(max_size=40).filter(lambda s: len(s.encode()) <= codec.limit)
    if isinstance(codec, ListOf):
        item = for_codec(codec.item) if not is_dataclass(codec.item) else for_record(codec.item)
        return st.lists(item, max_size=min(codec.limit, 6)).map(tuple)
    raise TypeError(codec)


def for_record(cls):
    return st.builds(cls, **{f.name: for_codec(f.metadata["codec"]) for f in fields(cls)})


def random_value(codec, rng):
    """A random valid value for a codec (for fuzz seeds, without Hypothesis)."""
    if isinstance(codec, Int):
        return rng.randint(codec.lo, codec.hi)
    if isinstance(codec, Str):
        return "".join(rng.choice("ABCNSW0123456789 åé") for _ in range(rng.randrange(0, 12)))
    if isinstance(codec, ListOf):
        make = (
            (lambda: random_value(codec.item, rng))
            if not is_dataclass(codec.item)
            else (lambda: random_message(codec.item, rng))
        )
        return tuple(make() for _ in range(rng.randrange(0, 4)))
    raise TypeError(codec)


def random_message(cls, rng):
    return cls(**{f.name: random_value(f.metadata["codec"], rng) for f in fields(cls)})
