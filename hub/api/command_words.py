"""What a command's argument needs, in the director's words ("a whole number from 1 to
999"), read from its pydantic field: for the refusal of a wrong argument and for the
command table of docs/api.md (``hub.api.command_models``)."""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Gt, Le, MaxLen, MinLen
from pydantic import BaseModel, StringConstraints, ValidationError
from pydantic.fields import FieldInfo


def _number(n: object) -> str:
    return str(int(n)) if isinstance(n, int | float) and float(n).is_integer() else str(n)


def _bounds(meta: list[Any]) -> str:
    lo = next((_number(m.ge) for m in meta if isinstance(m, Ge)), None)
    above = next((_number(m.gt) for m in meta if isinstance(m, Gt)), None)
    hi = next((_number(m.le) for m in meta if isinstance(m, Le)), None)
    if above is not None:
        return f" more than {above}" + (f" and at most {hi}" if hi else "")
    return f" from {lo} to {hi}" if lo is not None and hi is not None else ""


def _parts(info: FieldInfo) -> tuple[Any, list[Any], str | None]:
    """A field's type, its constraints and its description, through ``X | None`` and
    ``Annotated``."""
    kind: Any = info.annotation
    meta, description = list(info.metadata), info.description
    if get_origin(kind) in (Union, types.UnionType):
        kind = next(a for a in get_args(kind) if a is not type(None))
    if get_origin(kind) is Annotated:
        kind, *more = get_args(kind)
        for m in more:
            if isinstance(m, FieldInfo):
                meta += m.metadata
                description = description or m.description
            else:
                meta.append(m)
    return kind, meta, description


def _length(meta: list[Any]) -> str:
    shortest = next((m.min_length for m in meta if _has(m, "min_length")), 0)
    longest = next((m.max_length for m in meta if _has(m, "max_length")), None)
    if longest is None:
        return ""
    return (
        f" of {shortest} to {longest} characters"
        if shortest
        else f" of at most {longest} characters"
    )


def _has(m: object, attr: str) -> bool:
    return isinstance(m, MaxLen | MinLen | StringConstraints) and getattr(m, attr, None) is not None


def needs(info: FieldInfo) -> str:
    """What a field takes, as the director reads it: "a whole number from 1 to 999"."""
    kind, meta, description = _parts(info)
    if description:
        return description
    if get_origin(kind) is Literal:
        values = [str(v) for v in get_args(kind)]
        return "one of " + ", ".join(values[:-1]) + f" or {values[-1]}"
    if kind is int:
        return "a whole number" + _bounds(meta)
    if kind is float:
        return "a number" + _bounds(meta)
    if kind is bool:
        return "true or false"
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return "an object of " + ", ".join(f"`{n}`" for n in kind.model_fields)
    if get_origin(kind) in (list, tuple):
        return "a list" + _length(meta).replace("characters", "items")
    if get_origin(kind) is dict or kind is dict:
        return "an object"
    return "text" + _length(meta)


def _field(model: type[BaseModel], loc: tuple[int | str, ...]) -> FieldInfo | None:
    """The field an error's location names, through nested models (``rekey.board``)."""
    info = None
    for part in loc:
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        info = model.model_fields.get(str(part))
        if info is None:
            return None
        kind: Any = info.annotation
        inner = [a for a in get_args(kind) if isinstance(a, type) and issubclass(a, BaseModel)]
        model = inner[0] if inner else kind
    return info


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def refusal(name: str, model: type[BaseModel], error: ValidationError) -> str:
    """One line per wrong argument, each naming the argument and what it needs."""
    lines = []
    for e in error.errors():
        arg = ".".join(str(p) for p in e["loc"]) or "args"
        info = _field(model, e["loc"])
        if e["type"] == "extra_forbidden":
            takes = ", ".join(model.model_fields) or "no arguments"
            lines.append(f"{arg}: not an argument of {name} (it takes {takes})")
        elif e["type"] == "section_unknown" or info is None:
            lines.append(f"{arg}: {e['msg']}")
        elif e["type"] == "missing":
            lines.append(f"{arg}: missing; {name} needs {needs(info)} here")
        else:
            lines.append(f"{arg}: needs {needs(info)}, not {_shown(e.get('input'))}")
    return "; ".join(lines)
