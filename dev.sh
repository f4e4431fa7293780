#!/usr/bin/env bash
# Set-up and entry points for developers and CI: `bash dev.sh demo` runs the main job,
# `bash dev.sh test` runs what CI runs. Both create .venv and install the project first.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
VENV=.venv
EXTRAS=test,postgres,dd,web,report
CONSTRAINTS=constraints/snapshots.txt

ensure_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        if ! "$PY" -m venv "$VENV" 2>/dev/null; then
            rm -rf "$VENV"
            if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
                echo "dev.sh: installing python3-venv (Debian)" >&2
                apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
                "$PY" -m venv "$VENV"
            else
                echo "dev.sh: '$PY -m venv' failed; on Debian run: sudo apt-get install python3-venv" >&2
                exit 1
            fi
        fi
    fi
    local stamp="$VENV/.installed"
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ "$CONSTRAINTS" -nt "$stamp" ]; then
        "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
        # Every extra, with the snapshot toolchain pinned so the console's SVGs stay stable.
        "$VENV/bin/python" -m pip install -q -c "$CONSTRAINTS" -e ".[$EXTRAS]"
        # PyGObject drives umockdev's USB emulation in the USB tests; it builds from source
        # against Debian's GLib (< 2.80, hence < 3.51) when the -dev packages are present.
        if command -v pkg-config >/dev/null && pkg-config --exists gobject-introspection-1.0; then
            "$VENV/bin/python" -m pip install -q "PyGObject<3.51" || true
        fi
        touch "$stamp"
    fi
}

usb_tests() {
    if command -v umockdev-wrapper >/dev/null && "$VENV/bin/python" -c \
        "import gi; gi.require_version('UMockdev', '1.0')" 2>/dev/null; then
        umockdev-wrapper "$VENV/bin/python" -m pytest -q -m usb -p no:cacheprovider tests/test_usb.py
    else
        echo "dev.sh: USB tests skipped: umockdev and PyGObject are not installed (see .ci/run)"
    fi
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
        "$VENV/bin/ruff" check .
        "$VENV/bin/ruff" format --check .
        "$VENV/bin/mypy"
        "$VENV/bin/python" -m pytest -q "$@"
        usb_tests
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
        echo "usage: bash dev.sh demo|test|bench|bench-store|bench-wire|bench-room|bench-console [args]" >&2
        exit 2
        ;;
esac
