"""The import direction of docs/architecture: scoring ← drivers ← hub; the simulator may
use drivers and scoring but never hub, and nothing imports the simulator but tests; the
campaign harness (campaign/) may import anything and nothing of the product imports it.
The graph is ``hub.house``'s (``python -m hub.house`` prints it). Also the rules of
issue [ROOMS]: what each folder of hub/live may import, and one of each mechanism (one JSON
reader, one HTTP response helper, one attempt limit, no reaching into another module's
privates, one set of test helpers)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from hub.house import modules, parts
from hub.live import FOLDERS

ROOT = Path(__file__).parents[2]


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


def import_graph() -> dict[str, set[str]]:
    """Every module of the product and the project modules it imports: ``hub.house``'s
    graph, the one the house plan prints."""
    return {name: m.imports for name, m in modules(ROOT, tuple(FORBIDDEN)).items()}


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
    (``hub/live/port/base_station.py`` and its outgoing half, ``base_station_views.py``)."""
    adapter = ("hub.live.port.base_station", "hub.live.port.base_station_views")
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


# The live service's folders (hub.live.FOLDERS) ---------------------------------------------
# [ROOMS] #26: each folder of hub/live imports only the folders before it, and its
# __init__ docstring says so (tests/house/test_live_folders.py: every module in a folder,
# and docs/hub.md's drawing).
LIVE = ROOT / "hub" / "live"
PARTS = parts()


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_folder_imports_only_the_folders_before_it(folder):
    """D17: a result's path has no climbs back up; ``service`` is the composition root."""
    allowed = set(FOLDERS[: FOLDERS.index(folder)])
    climbs = {
        m.name: sorted(
            d.removeprefix("hub.live.")
            for d in m.imports
            if d.startswith("hub.live.") and d.split(".")[2] not in allowed | {folder}
        )
        for m in PARTS[f"hub.live.{folder}"].modules
    }
    assert not {m: d for m, d in climbs.items() if d}, climbs


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_folder_says_what_it_may_import(folder):
    """Each folder's ``__init__`` docstring ends with "May import:" naming the folders before
    it (in the order of ``FOLDERS``), so a newcomer reads the rule where the code is."""
    doc = ast.get_docstring(ast.parse((LIVE / folder / "__init__.py").read_text("utf-8"))) or ""
    said = re.search(r"May import: (.*)", doc, re.DOTALL)
    assert said, f"hub/live/{folder}/__init__.py does not say what it may import"
    before = FOLDERS[: FOLDERS.index(folder)]
    if folder == FOLDERS[-1]:
        assert "every folder" in said.group(1)
    else:
        named = re.findall(r"``(\w+)``", said.group(1).split("(")[0])
        assert named == list(before), f"hub/live/{folder} may import {before}, says {named}"


# No reaching into another module's privates (hub/live) ------------------------------------
# [ROOMS] #26: a part that needs another part's state asks for it through that part's
# documented methods (hub/live/teams: ``TeamDraws.spec``, ``.follow``, ``.changing``...).
# Every folder of hub/live (``hub.live.FOLDERS``).
PRIVATES_KEPT_IN = FOLDERS


def reached_privates(source: str) -> list[str]:
    """Each ``other._name`` in the source whose ``other`` is not ``self`` or ``cls`` (read,
    written or called; dunders such as ``__name__`` are Python's own), with its line."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        if node.attr.startswith("__") and node.attr.endswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        out.append((node.lineno, node.col_offset, ast.unparse(node)))
    return [f"{line}: {text}" for line, _, text in sorted(out)]


def test_reaching_into_privates_is_seen():
    source = "self._a\ncls._b\nx.__name__\nd._spec(s)\nself.draws._lock = 1\nsuper()._c()\n"
    assert reached_privates(source) == ["4: d._spec", "5: self.draws._lock", "6: super()._c"]


@pytest.mark.parametrize("folder", PRIVATES_KEPT_IN)
def test_no_module_reaches_into_another_modules_privates(folder):
    bad = [
        f"{path.relative_to(ROOT)}:{hit}"
        for path in sorted((ROOT / "hub" / "live" / folder).rglob("*.py"))
        for hit in reached_privates(path.read_text("utf-8"))
    ]
    assert not bad, bad


# One of each mechanism: JSON reader, HTTP responses ---------------------------------------
# [ROOMS] #26: JSON the hub did not write itself is read by one reader (one object; NaN,
# Infinity and other top levels refused, each caller wording the refusal its own way), and
# both web servers build their responses, with the security headers, with one helper.
JSON_READER = "hub/api/json_reader.py"
# Where json.loads may stay, and why: JSON the hub wrote itself, or the hub's own feed read
# by a one-shot command of the hub's command line (which ends with Python's error on a
# message that does not read, the director seeing it at once).
TRUSTED_JSON = {
    "hub/store/exchange.py": "a bridgehub backup (written by `event export --backup`) read "
    "back by `event restore`, which words its own refusals ('not a bridgehub backup: ...')",
    "hub/cli/demo_follow.py": "the feed of the hub the demo itself started, on this machine",
    "hub/cli/demo_guide.py": "the first snapshot of that same demo hub, for its closing words",
    "hub/cli/hand_records.py": "the hub's replies to `bridgehub hand-records`, the director's "
    "one command (not among [ROOMS] #26's files; it may move to the reader)",
}
HTTP_RESPONSES = "hub/http/responses.py"
SECURITY_HEADERS = (
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cache-Control",
)


def json_reads(source: str) -> list[str]:
    """Each way ``source`` parses JSON with the standard library (``json.loads``,
    ``json.load``, a ``JSONDecoder``, under any name the module is imported as), with its
    line."""
    tree = ast.parse(source)
    names = {"json"}
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == "json"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("json", "json.decoder"):
            hits += [
                (node.lineno, f"from {node.module} import {a.name}")
                for a in node.names
                if a.name in ("loads", "load", "JSONDecoder", "scanner", "decoder")
            ]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in names
            and node.attr in ("loads", "load", "JSONDecoder", "decoder", "scanner")
        ):
            hits.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return [f"{line}: {text}" for line, text in sorted(hits)]


def test_json_reads_are_seen():
    source = (
        "import json\nimport json as j\nfrom json import loads\njson.dumps(x)\n"
        "json.loads(s)\nj.load(f)\ndecode = json.JSONDecoder().decode\n"
    )
    assert json_reads(source) == [
        "3: from json import loads",
        "5: json.loads",
        "6: j.load",
        "7: json.JSONDecoder",
    ]


def test_untrusted_json_is_read_by_the_one_reader():
    """Every other JSON read under hub/ is listed in ``TRUSTED_JSON`` with its reason, and
    every listed module still reads JSON (no stale entries)."""
    reads = {
        path.relative_to(ROOT).as_posix(): json_reads(path.read_text("utf-8"))
        for path in sorted((ROOT / "hub").rglob("*.py"))
    }
    assert reads[JSON_READER], "the reader reads no JSON"
    unlisted = {
        rel: hits for rel, hits in reads.items() if hits and rel not in (JSON_READER, *TRUSTED_JSON)
    }
    assert not unlisted, f"read untrusted JSON with hub/api/json_reader.py: {unlisted}"
    assert not [rel for rel in TRUSTED_JSON if not reads.get(rel)], "stale TRUSTED_JSON entries"


def written_texts(source: str) -> list[str]:
    """The string constants of a module's code (f-strings' parts too), docstrings left out:
    what it can write to a peer."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_only_the_http_helper_writes_security_headers():
    """The security headers are named (outside docstrings) in one module under hub/, the
    helper both web servers build their responses with; ``X-Content-Type-Options`` is
    named nowhere else at all."""
    writers = {}
    for path in sorted((ROOT / "hub").rglob("*")):
        if not path.is_file() or path.suffix not in (".py", ".html", ".js"):
            continue
        rel, text = path.relative_to(ROOT).as_posix(), path.read_text("utf-8")
        if "x-content-type-options" in text.lower():
            writers.setdefault(rel, set()).add("X-Content-Type-Options")
        # a page or script is checked whole (a <meta http-equiv=...> sets a header too)
        texts = " ".join(written_texts(text)) if path.suffix == ".py" else text
        for header in SECURITY_HEADERS:
            if header.lower() in texts.lower():
                writers.setdefault(rel, set()).add(header)
    assert set(writers) == {HTTP_RESPONSES}, writers
    assert writers[HTTP_RESPONSES] == set(SECURITY_HEADERS)


# One of each mechanism: the rate limiter ---------------------------------------------------
# [ROOMS] #26, decisions D20: failed attempts (the director's PIN at the API, the takeover PIN
# from terminals, table codes from phones) are counted and made to wait by one limit, each
# user stating its waits as policies. A limiter's mark is its doubling wait, so only the
# limit doubles a wait; elsewhere a doubling is listed here with why it is no failure limit.
ATTEMPT_LIMIT = "hub/api/attempt_limit.py"
LIMITED_ATTEMPTS = (
    "hub/api/sessions.py",
    "hub/live/tables/takeover_pin.py",
    "hub/web_terminal/wrong_codes.py",
)
OTHER_DOUBLINGS = {
    "hub/live/oversight/supervisor.py": "the pause before a failed task of the hub's own is "
    "started again: no peer's failures counted, nobody refused",
}
TWO = (2, 2.0)


def _constant(node: ast.AST, values: tuple[float, ...]) -> bool:
    return (
        isinstance(node, ast.Constant)
        and not isinstance(node.value, bool)
        and isinstance(node.value, int | float)
        and node.value in values
    )


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def doublings(source: str) -> list[str]:
    """Each doubling in ``source``, with its line: two raised to a power that is counted
    (``2 ** n``, ``2.0 ** (n - k)``, ``1 << n``, ``pow(2, n)``, ``ldexp``, ``exp2``; a
    constant power such as ``2 ** 31`` is a size, not a count), a value doubled in place
    (``x *= 2``), or a doubling under a cap (``min(x * 2, cap)``)."""
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp):
            base = {ast.Pow: TWO, ast.LShift: (1,)}.get(type(node.op), ())
            if _constant(node.left, base) and not isinstance(node.right, ast.Constant):
                hits.append(node)
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.op, ast.Mult) and _constant(node.value, TWO):
                hits.append(node)
        elif isinstance(node, ast.Call):
            name = _called(node)
            if name in ("ldexp", "exp2") or (
                name == "pow" and node.args and _constant(node.args[0], TWO)
            ):
                hits.append(node)
            elif name == "min":
                hits += [
                    a
                    for a in node.args
                    if isinstance(a, ast.BinOp)
                    and isinstance(a.op, ast.Mult)
                    and (_constant(a.left, TWO) or _constant(a.right, TWO))
                ]
    found = sorted(hits, key=lambda n: (n.lineno, n.col_offset))
    return [f"{n.lineno}: {ast.unparse(n)}" for n in found]


def test_doublings_are_seen():
    source = (
        "w = BASE_S * 2 ** (failures - LIMIT)\nsize = 2 ** 31\nw = 2.0**n\nw = 1 << n\n"
        "w *= 2\nw = min(CAP, w * 2)\nw = math.ldexp(b, n)\nw = pow(2, n)\nw = x * 2\n"
    )
    assert doublings(source) == [
        "1: 2 ** (failures - LIMIT)",
        "3: 2.0 ** n",
        "4: 1 << n",
        "5: w *= 2",
        "6: w * 2",
        "7: math.ldexp(b, n)",
        "8: pow(2, n)",
    ]


def test_failed_attempts_are_limited_by_the_one_attempt_limit():
    """No module under hub/ grows its own failure limit again: each of the three limits the
    hub had wrote its wait as a first wait doubled per failure (``BASE_S * 2 ** (failures -
    LIMIT)``), so only ``hub/api/attempt_limit.py`` may double anything, however spelt
    (``doublings``: read from the syntax tree, so comments, strings and names do not count,
    nor do sizes such as ``2 ** 31``). A doubling elsewhere that is no failure limit is
    listed in ``OTHER_DOUBLINGS`` with why (and a listed module still doubles: no stale
    entries). The three users import the limit, so none went back to counting on its own."""
    found = {
        path.relative_to(ROOT).as_posix(): doublings(path.read_text("utf-8"))
        for path in sorted((ROOT / "hub").rglob("*.py"))
    }
    assert found[ATTEMPT_LIMIT], "the attempt limit doubles no wait"
    own = {
        rel: hits
        for rel, hits in found.items()
        if hits and rel not in (ATTEMPT_LIMIT, *OTHER_DOUBLINGS)
    }
    assert not own, f"count failures with hub/api/attempt_limit.py: {own}"
    assert not [rel for rel in OTHER_DOUBLINGS if not found.get(rel)], "stale OTHER_DOUBLINGS"
    graph = modules()
    limit = ATTEMPT_LIMIT.removesuffix(".py").replace("/", ".")
    dotted = {rel: rel.removesuffix(".py").replace("/", ".") for rel in LIMITED_ATTEMPTS}
    apart = [rel for rel, name in dotted.items() if limit not in graph[name].imports]
    assert not apart, f"limited without hub/api/attempt_limit.py: {apart}"


# One set of test helpers -----------------------------------------------------------------
# No test module imports another test module ([ROOMS] #26). Shared set-up (a room, a
# recording port, an event, the readers of exported files...) lives in the helper modules at
# tests/*.py (tests/trust_room.py, tests/team_room.py, tests/hand_record_room.py...), named
# after what it is; a test module imports those, never another ``test_*.py``: a test file
# can then be moved, renamed, split or skipped without breaking the tests of another.
TESTS = Path(__file__).parents[1]
TEST_MODULES = sorted(TESTS.rglob("test_*.py"))


def imported_test_modules(source: str, test_names: set[str]) -> list[str]:
    """Each ``import test_x`` and ``from test_x import ...`` in the source (at any depth,
    inside functions too) whose ``test_x`` is one of ``test_names``, with its line."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        out += [f"{node.lineno}: {name}" for name in names if name.split(".")[0] in test_names]
    return out


def test_an_import_of_a_test_module_is_seen():
    source = (
        "import test_a\n"
        "from test_b import x\n"
        "import test_a as other, os\n"
        "def f():\n"
        "    from test_a import y\n"
        "import testing_helper\n"
        "from trust_room import Room\n"
        "import test_unknown\n"
    )
    assert imported_test_modules(source, {"test_a", "test_b"}) == [
        "1: test_a",
        "2: test_b",
        "3: test_a",
        "5: test_a",
    ]


def test_no_test_module_imports_another_test_module():
    """Every tests/**/test_*.py: what it shares with another test module comes from a helper
    module at tests/*.py, not from that test module."""
    names = {p.stem for p in TEST_MODULES}
    found = {
        str(p.relative_to(TESTS)): hits
        for p in TEST_MODULES
        if (hits := imported_test_modules(p.read_text("utf-8"), names))
    }
    assert found == {}, (
        "test modules importing other test modules (move what they share into a helper "
        f"module at tests/*.py): {found}"
    )
