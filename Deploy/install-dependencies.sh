#!/usr/bin/env bash
# Installs what building and testing the service needs on a Debian machine that already has
# the Swift toolchain: libzmq and SQLite (C libraries + headers) and pyzmq (the outside client the wire
# tests and examples use). Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! pkg-config --exists libzmq 2>/dev/null || ! pkg-config --exists sqlite3 2>/dev/null; then
    echo "installing libzmq3-dev and libsqlite3-dev" >&2
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y libzmq3-dev libsqlite3-dev pkg-config
fi

if ! python3 -c 'import zmq' 2>/dev/null; then
    echo "installing pyzmq" >&2
    python3 -m pip install --quiet pyzmq || python3 -m pip install --quiet --break-system-packages pyzmq
fi
