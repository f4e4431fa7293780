#!/usr/bin/env bash
# Set-up and entry points for developers and CI: `bash dev.sh demo` runs the main job,
# `bash dev.sh test` runs what CI runs (.ci/run only calls it). Each does all its own set-up
# on a fresh Debian machine (decisions D25): .venv and the project with every extra; for the
# tests, as root, the Debian packages they drive and a PostgreSQL server (127.0.0.1:5432 when
# one answers, else a private cluster, stopped at the end). A test whose tool is missing
# skips with its reason, never fails (tests/external_tools.py).
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
VENV=.venv
EXTRAS=test,postgres,dd,web,report
CONSTRAINTS=constraints/snapshots.txt
# What the tests drive outside Python (tests/external_tools.py names each in its reason):
# chromium, chromium-driver: the browser tests (a real headless browser at a phone's size);
# poppler-utils: pdftotext/pdftoppm read the printed report back; pango, harfbuzz and a font:
# WeasyPrint draws it; tmux: the console smoke test reads the demo's screen; umockdev, libusb:
# the USB tests emulate the base station, with PyGObject built against GLib's -dev files.
TEST_DEBS="chromium chromium-driver poppler-utils libpango-1.0-0 libpangoft2-1.0-0
    libharfbuzz-subset0 fonts-dejavu-core tmux umockdev libumockdev0 gir1.2-umockdev-1.0
    libusb-1.0-0 libgirepository1.0-dev libcairo2-dev pkg-config"
PG_DEB=postgresql # initdb and pg_ctl for the private clusters (decisions D13)
# The server tried first (trust auth, database test), as on a developer's machine or CI.
LOCAL_PG_URL=${BRIDGEHUB_LOCAL_PG_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/test}

say() { echo "dev.sh: $*" >&2; }

root_on_debian() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && command -v dpkg >/dev/null; }

apt_progress() { # apt's status lines (APT::Status-Fd) -> a short line every tenth of the way
    local kind pkg pct what next_dl=0 next_pm=0
    while IFS=: read -r kind pkg pct what; do
        pct=${pct%%.*}
        case "$pct" in '' | *[!0-9]*) continue ;; esac
        if [ "$kind" = dlstatus ] && [ "$pct" -ge "$next_dl" ]; then
            say "  downloading: $pct %"
            next_dl=$((pct / 10 * 10 + 10))
        elif [ "$kind" = pmstatus ] && [ "$pct" -ge "$next_pm" ]; then
            say "  $pct %: ${what:-$pkg}"
            next_pm=$((pct / 10 * 10 + 10))
        fi
    done
}

apt_install() { # the Debian packages among "$@" that are not installed yet, with progress
    local missing=() p t0=$SECONDS
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${#missing[@]} Debian packages: ${missing[*]}"
    if [ -z "${APT_UPDATED:-}" ]; then
        say "  apt-get update"
        apt-get update -qq
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o APT::Status-Fd=3 "${missing[@]}" \
        3>&1 >/dev/null | apt_progress
    say "  Debian packages installed ($((SECONDS - t0)) s)"
}

pip_progress() { # pip's output -> one line for every few packages it fetches
    local line name names=()
    while IFS= read -r line; do
        case "$line" in
            "Collecting "*)
                name=${line#Collecting }
                names+=("${name%%[[:space:]<>=!~;[(]*}")
                if [ ${#names[@]} -ge 8 ]; then
                    say "  pip: ${names[*]}"
                    names=()
                fi
                ;;
            "Installing collected packages:"*)
                if [ ${#names[@]} -gt 0 ]; then say "  pip: ${names[*]}"; fi
                names=()
                say "  pip: installing them into $VENV"
                ;;
        esac
    done
    if [ ${#names[@]} -gt 0 ]; then say "  pip: ${names[*]}"; fi
    return 0
}

pip_install() { # pip install "$@" into .venv, showing progress; its whole output in a log
    local log="$VENV/pip-install.log"
    if ! "$VENV/bin/python" -m pip install --progress-bar off "$@" 2>&1 | tee "$log" | pip_progress; then
        say "pip install $* failed; the end of $log:"
        tail -n 30 "$log" >&2
        return 1
    fi
}

ensure_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV ($PY -m venv)"
        if ! "$PY" -m venv "$VENV" 2>/dev/null; then
            rm -rf "$VENV"
            if root_on_debian; then
                apt_install python3-venv
                "$PY" -m venv "$VENV"
            else
                say "'$PY -m venv' failed; on Debian run: sudo apt-get install python3-venv"
                exit 1
            fi
        fi
    fi
    local stamp="$VENV/.installed" t0=$SECONDS
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ "$CONSTRAINTS" -nt "$stamp" ]; then
        say "installing bridgehub into $VENV with every extra ($EXTRAS): about a minute"
        "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
        # Every extra, with the snapshot toolchain pinned so the console's SVGs stay stable.
        pip_install -c "$CONSTRAINTS" -e ".[$EXTRAS]" || exit 1
        touch "$stamp"
        say "  $VENV ready ($((SECONDS - t0)) s)"
    fi
}

ensure_pygobject() {
    # PyGObject drives umockdev's USB emulation in the USB tests; it builds from source
    # against Debian's GLib (< 2.80, hence < 3.51) when the -dev packages are present.
    "$VENV/bin/python" -c "import gi" 2>/dev/null && return 0
    if command -v pkg-config >/dev/null && pkg-config --exists gobject-introspection-1.0; then
        say "installing PyGObject for the USB tests (it builds against GLib: about 30 s)"
        pip_install "PyGObject<3.51" || say "  PyGObject did not build: the USB tests skip"
    fi
}

test_setup() { # as root on Debian: what the tests drive; otherwise say what will skip
    local debs=$TEST_DEBS
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
        debs="$debs $PG_DEB"
    fi
    if root_on_debian; then
        # shellcheck disable=SC2086 # one package a word
        apt_install $debs
    elif command -v dpkg >/dev/null; then
        local missing=() p
        for p in $debs; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
        if [ ${#missing[@]} -gt 0 ]; then
            say "not root, so not installing the Debian packages ${missing[*]}:" \
                "the tests that need them skip, saying why (as root, dev.sh installs them)"
        fi
    fi
    ensure_pygobject
}

pg_answers() { # the server at LOCAL_PG_URL takes postgres without a password
    "$VENV/bin/python" -c "import psycopg; psycopg.connect('${LOCAL_PG_URL/+psycopg/}', connect_timeout=3).close()" 2>/dev/null
}

with_postgres() { # run "$@" with BRIDGEHUB_TEST_PG_URL set, a private cluster if need be
    local why
    if [ -n "${BRIDGEHUB_TEST_PG_URL:-}" ]; then
        say "PostgreSQL for the tests: $BRIDGEHUB_TEST_PG_URL (BRIDGEHUB_TEST_PG_URL)"
    elif pg_answers; then
        export BRIDGEHUB_TEST_PG_URL=$LOCAL_PG_URL
        say "PostgreSQL for the tests: $BRIDGEHUB_TEST_PG_URL"
    elif [ ! -x "$VENV/bin/python" ]; then
        say "no $VENV yet (bash dev.sh test makes it): no PostgreSQL for the tests"
    else
        why=$("$VENV/bin/python" -c \
            "from campaign.pg_cluster import PrivateCluster; print(PrivateCluster.available() or '')")
        if [ -z "$why" ]; then
            say "no PostgreSQL answers at ${LOCAL_PG_URL#*@}: starting a private cluster for the tests"
            "$VENV/bin/python" -m campaign.pg_cluster -- "$@"
            return
        fi
        say "no PostgreSQL for the tests ($why): the PostgreSQL tests skip, saying so"
    fi
    "$@"
}

usb_tests() {
    if command -v umockdev-wrapper >/dev/null && "$VENV/bin/python" -c \
        "import gi; gi.require_version('UMockdev', '1.0')" 2>/dev/null; then
        umockdev-wrapper "$VENV/bin/python" -m pytest -q -m usb -p no:cacheprovider tests/drivers/test_usb.py
    else
        say "USB tests skipped: umockdev and PyGObject are not installed (as root, dev.sh installs them)"
    fi
}

# pytest's workers in `bash dev.sh test` (pytest-xdist): the tests mostly wait on ptys,
# subprocesses, browsers and databases, so more workers than cores pay (measured on 2 cores).
TEST_WORKERS=3

pytest_options() { # -n, --dist and --durations for pytest "$@", unless "$@" chooses them
    PYTEST_OPTIONS=()
    local a parallel=1 durations=1
    for a in "$@"; do
        case "$a" in
            -n | -n* | --numprocesses* | --dist* | no:xdist | -pno:xdist) parallel= ;;
            --durations*) durations= ;;
        esac
    done
    if [ -n "$parallel" ] && ! "$VENV/bin/python" -c "import xdist" 2>/dev/null; then
        say "pytest-xdist is not in $VENV: the tests run one at a time"
        parallel=
    fi
    # loadgroup: a module marked xdist_group keeps its tests (and its fixture) on one worker
    if [ -n "$parallel" ]; then PYTEST_OPTIONS+=(-n "$TEST_WORKERS" --dist loadgroup); fi
    if [ -n "$durations" ]; then PYTEST_OPTIONS+=(--durations=15); fi
}

cmd=${1:-}
shift || true
case "$cmd" in
    demo)
        ensure_venv
        "$VENV/bin/bridgehub" demo "$@"
        ;;
    test)
        ensure_venv
        test_setup
        say "ruff, ruff format --check, mypy"
        "$VENV/bin/ruff" check .
        "$VENV/bin/ruff" format --check .
        "$VENV/bin/mypy"
        pytest_options "$@"
        say "pytest ${PYTEST_OPTIONS[*]}"
        with_postgres "$VENV/bin/python" -m pytest -q "${PYTEST_OPTIONS[@]}" "$@"
        usb_tests
        ;;
    with-postgres) # run one command as the tests run: bash dev.sh with-postgres .venv/bin/pytest …
        with_postgres "$@"
        ;;
    house) # the parts, their modules, line counts and imports: bash dev.sh house [--part hub.live]
        ensure_venv
        "$VENV/bin/python" -m hub.house "$@"
        ;;
    bench)
        ensure_venv
        "$VENV/bin/python" bench/scoring.py "$@"
        ;;
    bench-store)
        ensure_venv
        "$VENV/bin/python" bench/store.py "$@"
        ;;
    bench-wire)
        ensure_venv
        "$VENV/bin/python" bench/wire.py "$@"
        ;;
    bench-room)
        ensure_venv
        "$VENV/bin/python" bench/room.py "$@"
        ;;
    bench-console)
        ensure_venv
        "$VENV/bin/python" bench/console.py "$@"
        ;;
    *)
        echo "usage: bash dev.sh demo|test|with-postgres|house|bench|bench-store|bench-wire|bench-room|bench-console [args]" >&2
        exit 2
        ;;
esac
