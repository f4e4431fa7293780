"""The import direction of docs/architecture: scoring ← drivers ← hub; the simulator may
use drivers and scoring but never hub, and nothing imports the simulator but tests; the
campaign harness (campaign/) may import anything and nothing of the product imports it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
FORBIDDEN = {
    "scoring": {"drivers", "hub", "simulator", "campaign"},
    "drivers": {"hub", "simulator", "campaign"},
    "hub": {"simulator", "campaign"},
    "simulator": {"hub", "campaign"},
}
# campaign/ is a harness like tests/ and bench/ (issue 12 [FAULTS]): it may import anything,
# and nothing but tests imports it (``bridgehub campaign`` reaches it through an entry point)


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_down_the_layers(package):
    bad = []
    for path in (ROOT / package).rglob("*.py"):
        wrong = imports(path) & FORBIDDEN[package]
        if wrong:
            bad.append(f"{path.relative_to(ROOT)} imports {', '.join(sorted(wrong))}")
    assert not bad, bad


def test_nothing_of_the_product_imports_the_campaign():
    """Issue 12: campaign/ is a harness like tests/ and bench/; only tests (and the
    ``bridgehub campaign`` entry point, which is no import) reach it."""
    bad = [
        f"{path.relative_to(ROOT)}"
        for package in ("scoring", "drivers", "hub", "simulator", "bench")
        for path in (ROOT / package).rglob("*.py")
        if "campaign" in imports(path)
    ]
    assert not bad, bad


def test_scoring_does_no_io():
    """scoring/ is pure: no files, sockets, databases, clocks or asyncio."""
    banned = {"os", "socket", "asyncio", "sqlalchemy", "serial", "usb", "time", "pathlib"}
    for path in (ROOT / "scoring").rglob("*.py"):
        assert not imports(path) & banned, path


def modules() -> dict[str, Path]:
    """Every module of the four packages, by dotted name."""
    out = {}
    for package in FORBIDDEN:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def imported_modules(path: Path, known: set[str]) -> set[str]:
    """The project modules a file imports (``from a.b import c`` counts a.b.c when that is
    a module, else a.b), at any depth of the file (functions and TYPE_CHECKING too)."""
    tree = ast.parse(path.read_text("utf-8"))
    out = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        for name in names:
            if name in known:
                out.add(name)
                break
    return out


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imported_modules(path, known) - {name} for name, path in mods.items()}


def test_no_import_cycles_anywhere():
    """D17: parts depend on narrow protocols, so no module reaches back into one that
    imports it (Tarjan's strongly connected components over the import graph)."""
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, cycles


def imports_of_package(prefix: str) -> dict[str, set[str]]:
    return {m: deps for m, deps in import_graph().items() if m.startswith(prefix)}


@pytest.mark.parametrize("client", ["hub.console", "hub.result_screen"])
def test_clients_of_the_api_import_neither_the_store_nor_the_service(client):
    """D1, D17: the console and the result screen follow the hub's feed; they never open
    the store or reach into the live service."""
    bad = {
        m: sorted(
            d for d in deps if d.startswith(("hub.store", "hub.live", "hub.standings.rebuild"))
        )
        for m, deps in imports_of_package(client).items()
    }
    assert not {m: d for m, d in bad.items() if d}, bad


def test_only_the_base_station_adapter_speaks_wire_types():
    """D18: intake, the round controller and every other part of the live service work on
    domain types; wire messages and codes are mapped in the base-station adapter alone
    (``hub/live/base_station.py`` and its outgoing half, ``base_station_views.py``)."""
    adapter = ("hub.live.base_station", "hub.live.base_station_views")
    bad = {
        m: sorted(d for d in deps if d.startswith("drivers.protocol"))
        for m, deps in imports_of_package("hub").items()
        if m not in adapter
    }
    assert not {m: d for m, d in bad.items() if d}, bad


def test_the_hub_core_does_not_import_its_clients():
    """The service, store, event model and standings never import the console or the
    result screen (clients depend on the hub, not the other way round)."""
    core = ("hub.live", "hub.store", "hub.event", "hub.standings", "hub.api")
    bad = {
        m: sorted(d for d in deps if d.startswith(("hub.console", "hub.result_screen")))
        for m, deps in import_graph().items()
        if m.startswith(core)
    }
    assert not {m: d for m, d in bad.items() if d}, bad


def test_modules_are_small_enough_to_read_in_one_sitting():
    """[HOUSE]: no module under hub/ over 400 lines; the live service's parts under 300
    (generated migrations excepted)."""
    too_long = []
    for path in (ROOT / "hub").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        limit = 299 if "live" in path.parts else 400
        lines = len(path.read_text("utf-8").splitlines())
        if lines > limit:
            too_long.append(f"{path.relative_to(ROOT)}: {lines} lines (limit {limit})")
    assert not too_long, too_long


VALUE_BASES = {"NamedTuple", "TypedDict"}
ENUM_BASES = {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"}
EXCEPTION_BASES = {"Exception", "BaseException", "ValueError", "RuntimeError", "LookupError"}
THREAD_WORDS = re.compile(r"\b(loop|thread)|sans[- ]i/o|no i/o", re.IGNORECASE)
# generated migration scripts are Alembic's, not ours
NOT_CHECKED = ("hub/store/migrations/",)


def base_names(cls: ast.ClassDef) -> set[str]:
    """The last dotted part of each base (``typing.Protocol`` -> ``Protocol``)."""
    out = set()
    for base in cls.bases:
        node = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Name):
            out.add(node.id)
    return out


def decorator_names(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """``@dataclass(frozen=True)`` -> {"dataclass", "frozen"}; ``@x.setter`` -> {"setter"}."""
    out = set()
    for dec in node.decorator_list:
        call = dec if isinstance(dec, ast.Call) else None
        target = call.func if call else dec
        if isinstance(target, ast.Attribute):
            out.add(target.attr)
        elif isinstance(target, ast.Name):
            out.add(target.id)
        if call and any(
            k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in call.keywords
        ):
            out.add("frozen")
    return out


def public_classes() -> list[tuple[str, ast.ClassDef]]:
    """Every class named without a leading ``_`` in hub/ and drivers/, with its file."""
    out = []
    for package in ("hub", "drivers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(NOT_CHECKED):
                continue
            tree = ast.parse(path.read_text("utf-8"))
            out += [
                (rel, node)
                for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_")
            ]
    return out


def enum_and_exception_bases(classes: list[tuple[str, ast.ClassDef]]) -> set[str]:
    """Base names that make a class an enum or an exception: the standard ones and, by name
    until nothing changes, the project's classes that derive from them. (A class that
    derives from a Protocol implements it, so Protocols are not followed.)"""
    names = ENUM_BASES | EXCEPTION_BASES
    changed = True
    while changed:
        changed = False
        for _, cls in classes:
            bases = base_names(cls)
            if cls.name not in names and (
                bases & names or any(b.endswith(("Error", "Exception")) for b in bases)
            ):
                names.add(cls.name)
                changed = True
    return names


def holds_behaviour(cls: ast.ClassDef) -> bool:
    """A method other than a dunder, a property or a classmethod (which value types have)."""
    value_only = {"property", "cached_property", "setter", "classmethod", "staticmethod"}
    return any(
        isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        and not (f.name.startswith("__") and f.name.endswith("__"))
        and not decorator_names(f) & value_only
        for f in cls.body
    )


def test_public_classes_say_which_thread_or_loop_they_belong_to():
    """[HOUSE], D17: one thread owns the hub's state (the asyncio loop); worker threads do
    store I/O. So every public class that holds behaviour says in its own docstring where
    it runs: on a loop, on a thread (or any thread), or that it is sans-I/O. Plain values
    (frozen dataclasses, NamedTuples), enums, exceptions and Protocols are exempt."""
    classes = public_classes()
    exempt_bases = enum_and_exception_bases(classes) | VALUE_BASES | {"Protocol"}
    silent = []
    for rel, cls in classes:
        decorators = decorator_names(cls)
        if base_names(cls) & exempt_bases or "frozen" in decorators or not holds_behaviour(cls):
            continue
        if not THREAD_WORDS.search(ast.get_docstring(cls) or ""):
            silent.append(f"{rel}:{cls.lineno} {cls.name}")
    assert not silent, "docstring does not say which thread or loop:\n" + "\n".join(silent)
