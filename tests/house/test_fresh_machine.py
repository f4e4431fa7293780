"""Decisions D25 and issue [MENDS] #25, "the README's test command is red on a fresh machine":
``bash dev.sh test`` does its own set-up (``.ci/run`` only calls it), and a test that needs a
tool from outside the venv it cannot have skips with its reason, on CI as anywhere. The tool
checks (tests/external_tools.py) are run for real in a pytest of their own; dev.sh's
PostgreSQL is started and stopped for real."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from external_tools import ALL, PDFTOTEXT, POSTGRES, missing, need

from campaign.pg_cluster import PrivateCluster, free_port

ROOT = Path(__file__).parents[2]
TESTS = Path(__file__).parents[1]
# a command line that runs a tool outside the venv: ["pdftotext", …], CHROMIUM = "/usr/bin/…"
RUNS_A_TOOL = re.compile(
    r'\[\s*"(pdftotext|pdftoppm|tmux|umockdev-wrapper|psql|pg_ctl|initdb)"'
    r'|"/usr/bin/(chromium|chromedriver)"'
)
ASSERTS_A_TOOL = re.compile(r"assert\s[^\n]*(\bwhich\(|Path\(\"/usr/bin/)")


def sources():
    return sorted(p for p in TESTS.rglob("*.py") if p.name != Path(__file__).name)


def test_no_test_asserts_that_a_tool_is_installed_d25():
    """D25: "a test that needs a tool it cannot have skips with its reason, it never fails
    for a missing tool" (the club evening asserted pdftotext was installed)."""
    found = [
        f"{p.name}:{text[: m.start()].count(chr(10)) + 1}"
        for p in sources()
        for text in [p.read_text("utf-8")]
        for m in ASSERTS_A_TOOL.finditer(text)
    ]
    assert found == [], f"assert on an installed tool (use external_tools.need): {found}"


def test_every_test_that_runs_a_tool_checks_for_it_first_d25():
    """Each test module that runs poppler, tmux, chromium, umockdev or PostgreSQL's programs
    goes through tests/external_tools.py, so it skips with the same reasons."""
    unchecked = [
        p.name
        for p in sources()
        if RUNS_A_TOOL.search(text := p.read_text("utf-8")) and "external_tools" not in text
    ]
    assert unchecked == [], f"runs a tool without external_tools: {unchecked}"


def test_dev_sh_installs_every_debian_package_a_reason_names_d25():
    """A skip says "apt-get install X; bash dev.sh test installs it when run as root": X must
    be among the packages dev.sh installs, and .ci/run must not keep a list of its own."""
    script = (ROOT / "dev.sh").read_text("utf-8")
    listed = re.search(r'^TEST_DEBS="([^"]*)"', script, re.MULTILINE)
    pg = re.search(r"^PG_DEB=(\S+)", script, re.MULTILINE)
    assert listed and pg, "dev.sh has no TEST_DEBS or PG_DEB"
    installed = set(listed.group(1).split()) | {pg.group(1)}
    named = {deb for tool in ALL for deb in tool.debian.split()}
    assert named - installed == set(), f"named in a reason, not installed by dev.sh: {named}"


def test_ci_run_only_calls_the_readme_test_command_d25():
    """D25: "`.ci/run` only calls the README's test command": no package list, no PostgreSQL
    of its own (one copy of the set-up: dev.sh); it runs `bash dev.sh test`."""
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    code = "\n".join(line for line in ci.splitlines() if not line.lstrip().startswith("#"))
    for word in ("apt-get", "initdb", "pg_ctl", "pip ", "pytest"):
        assert word not in code, f".ci/run does {word} itself"
    assert "bash dev.sh test" in code
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "bash dev.sh test" in readme.split("\n\n")[0]


def test_a_tool_not_on_path_is_named_with_its_package(tmp_path, monkeypatch):
    """The reason a PDF test skips on a machine without poppler (the TD trial's machine)."""
    monkeypatch.setenv("PATH", str(tmp_path))
    (why,) = missing(PDFTOTEXT)
    assert "pdftotext" in why and "apt-get install poppler-utils" in why
    assert "bash dev.sh test installs it when run as root" in why


CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from external_tools import pytest_configure, pytest_runtest_setup  # noqa: F401
"""
CHECKS = """
from external_tools import Tool, need, needs, program

ABSENT = Tool("bridgehub-no-such-tool", program("bridgehub-no-such-tool"), debian="no-such-deb")

@needs(ABSENT)
def test_as_a_mark():
    raise AssertionError("ran without its tool")

def test_in_the_test():
    need(ABSENT)
    raise AssertionError("ran on past its tool")

def test_a_tool_that_is_there():
    need(Tool("sh", program("sh"), debian="dash"))
"""


def run_checks(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", "utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, "utf-8")
    (tmp_path / "test_checks.py").write_text(CHECKS, "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rsf", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_off_ci_a_missing_tool_skips_with_its_reason_d25(tmp_path):
    """D25 off CI: the test is skipped (as a mark, or from inside it), never failed, and the
    summary says which tool and how to get it."""
    run = run_checks(tmp_path, ci=None)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert re.search(r"\b1 passed, 2 skipped\b", out), out
    assert re.search(
        r"SKIPPED \[2\] .*needs bridgehub-no-such-tool: no bridgehub-no-such-tool on PATH", out
    ), out
    assert "apt-get install no-such-deb" in out, out


def test_on_ci_a_missing_tool_still_skips_d25(tmp_path):
    """Decisions D25 (binding): "a test that needs a tool it cannot have skips with its
    reason, it never fails for a missing tool", with CI=true as without."""
    run = run_checks(tmp_path, ci="true")
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert re.search(r"\b1 passed, 2 skipped\b", out), out
    assert "ran without its tool" not in out and "ran on past its tool" not in out, out


def dev_sh_with_postgres(local_url: str) -> subprocess.CompletedProcess[str]:
    """``bash dev.sh with-postgres`` (what ``dev.sh test`` wraps pytest in) running a child
    that prints the URL it was given and connects to it."""
    if not (ROOT / ".venv" / "bin" / "python").exists():
        pytest.skip("needs the project's .venv (bash dev.sh test makes it)")
    child = (
        "import os, psycopg; u = os.environ['BRIDGEHUB_TEST_PG_URL']; "
        "psycopg.connect(u.replace('+psycopg', ''), connect_timeout=10).close(); print('URL', u)"
    )
    env = {k: v for k, v in os.environ.items() if k != "BRIDGEHUB_TEST_PG_URL"}
    env["BRIDGEHUB_LOCAL_PG_URL"] = local_url
    return subprocess.run(
        ["bash", str(ROOT / "dev.sh"), "with-postgres", sys.executable, "-c", child],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def answers(url: str) -> bool:
    import psycopg

    try:
        psycopg.connect(url.replace("+psycopg", ""), connect_timeout=5).close()
    except psycopg.OperationalError:
        return False
    return True


def test_dev_sh_starts_a_private_cluster_when_no_server_answers_and_stops_it_d13():
    """D13/D25: no server answers where dev.sh looks first: the tests get a private cluster
    of their own, connectable, and it is stopped when they end."""
    need(POSTGRES)
    nobody = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/test"
    run = dev_sh_with_postgres(nobody)
    assert run.returncode == 0, run.stdout + run.stderr
    (url,) = re.findall(r"^URL (\S+)$", run.stdout, re.MULTILINE)
    assert url != nobody and "a private cluster" in run.stderr, run.stderr
    assert not answers(url), f"the tests' private cluster {url} still runs after them"


def test_dev_sh_uses_the_server_that_answers_d13():
    """D13: a server answers (here one of our own standing in for 127.0.0.1:5432): the tests
    use it and no second server is started."""
    need(POSTGRES)
    with PrivateCluster("test") as pg:
        run = dev_sh_with_postgres(pg.url)
        assert run.returncode == 0, run.stdout + run.stderr
        assert re.findall(r"^URL (\S+)$", run.stdout, re.MULTILINE) == [pg.url], run.stdout
        assert "private cluster" not in run.stderr, run.stderr
