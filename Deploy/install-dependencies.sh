#!/usr/bin/env bash
# Installs what building and testing the service needs on a Debian machine that already has
# the Swift toolchain: libzmq and SQLite (C libraries + headers), PostgreSQL (the tests start
# throwaway servers of their own with Deploy/postgres-dev.sh; Debian's system cluster is never
# used), pyzmq (the outside client the wire tests and examples use), prometheus_client (whose
# parser the monitoring tests check svcd's /metrics text with), jsonschema (which validates
# replies against svcd's `describe` schemas in the tests), opentelemetry-proto (which decodes
# the spans svcd exports in the tracing tests' OTLP/HTTP receiver) and valgrind (the
# instruction budget tests). Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_install() {
    echo "installing $*" >&2
    if [ "$apt_updated" -eq 0 ]; then
        as_root apt-get update
        apt_updated=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

if ! pkg-config --exists libzmq 2>/dev/null || ! pkg-config --exists sqlite3 2>/dev/null; then
    apt_install libzmq3-dev libsqlite3-dev pkg-config
fi

# valgrind (callgrind) counts instructions per request for the budget tests; objcopy (binutils)
# strips the DWARF 5 debug info valgrind 3.19 cannot read from the copy it runs.
if ! command -v valgrind >/dev/null 2>&1 || ! command -v objcopy >/dev/null 2>&1; then
    apt_install valgrind binutils
fi

# Where Deploy/postgres-dev.sh looks for initdb: PATH, then Debian's versioned directories.
if ! command -v initdb >/dev/null 2>&1 && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    apt_install --no-install-recommends postgresql
fi

if ! python3 -c 'import zmq' 2>/dev/null; then
    echo "installing pyzmq" >&2
    python3 -m pip install --quiet pyzmq || python3 -m pip install --quiet --break-system-packages pyzmq
fi

if ! python3 -c 'import prometheus_client' 2>/dev/null; then
    echo "installing prometheus_client" >&2
    python3 -m pip install --quiet prometheus_client || python3 -m pip install --quiet --break-system-packages prometheus_client
fi
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "installing jsonschema" >&2
    python3 -m pip install --quiet jsonschema || python3 -m pip install --quiet --break-system-packages jsonschema
fi
if ! python3 -c 'import opentelemetry.proto.collector.trace.v1.trace_service_pb2' 2>/dev/null; then
    echo "installing opentelemetry-proto" >&2
    python3 -m pip install --quiet opentelemetry-proto || python3 -m pip install --quiet --break-system-packages opentelemetry-proto
fi
