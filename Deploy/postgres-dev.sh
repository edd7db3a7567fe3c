#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and developers: its own cluster in one directory,
# listening on 127.0.0.1 only, trust authentication, never Debian's system cluster.
#
#   postgres-dev.sh start [DIR] [--port N] [--db NAME] [--no-sync]
#       initdb into DIR/data (DIR default: a new mktemp -d; DIR must not exist or be empty),
#       start it on a free port (or N), create database NAME (default svc) and print, one per
#       line on stdout: PGDEV_DIR, PGDEV_PORT, PGDEV_HOST, PGDEV_SOCKET_DIR, PGDEV_USER, PGDEV_DB,
#       PGDEV_URL (postgres://USER@127.0.0.1:PORT/NAME), PGDEV_BIN (where psql lives).
#       fsync stays on (commits are real); --no-sync or PGDEV_FSYNC=off trades that for speed.
#   postgres-dev.sh stop DIR      stop the server (fast, else immediate) and remove DIR; safe twice
#   postgres-dev.sh pause DIR     stop the server, keep the data ("the database went away")
#   postgres-dev.sh resume DIR    start it again on the same port; prints the lines again
#   postgres-dev.sh status DIR    the lines, then exit 0 if the server runs, 3 if not
#   postgres-dev.sh standby PRIMARY_DIR [DIR] [--port N]
#       a streaming standby of the server in PRIMARY_DIR (pg_basebackup -R), started on a free
#       port (or N); prints the lines like start (PGDEV_DB: the primary's database)
#   postgres-dev.sh crash DIR     stop the server at once, as a crash would (immediate mode)
#   postgres-dev.sh promote DIR   promote a standby to a primary and wait until it is one
#
# PostgreSQL refuses to run as root: as root, everything touching the cluster runs as the
# `postgres` user (DIR is chowned to it) and the superuser is `postgres`; as any other user the
# cluster belongs to that user. Binaries: $PGDEV_BIN, else initdb's directory (PATH), else the
# newest /usr/lib/postgresql/*/bin. Failures exit non-zero with the server log's tail on stderr.
set -euo pipefail

usage() {
    sed -n '5,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

die() {
    echo "postgres-dev: $*" >&2
    exit 1
}

# The caller's libpq settings must not redirect our own psql/createdb calls.
for variable in $(compgen -e); do
    case "$variable" in
        PGDEV_*) ;;
        PG*) unset "$variable" ;;
    esac
done

find_bin() {
    local candidate
    if [ -n "${PGDEV_BIN:-}" ]; then
        echo "$PGDEV_BIN"
        return
    fi
    if candidate=$(command -v initdb 2>/dev/null); then
        candidate=$(dirname "$(readlink -f "$candidate")")
        if [ -x "$candidate/pg_ctl" ] && [ -x "$candidate/psql" ]; then
            echo "$candidate"
            return
        fi
    fi
    candidate=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$candidate" ] && [ -x "$candidate/initdb" ]; then
        echo "$candidate"
        return
    fi
    die "no PostgreSQL found (initdb in PATH or /usr/lib/postgresql/*/bin); run Deploy/install-dependencies.sh"
}

bin=$(find_bin)
for tool in initdb pg_ctl psql; do
    [ -x "$bin/$tool" ] || die "$bin/$tool is missing (set PGDEV_BIN to a PostgreSQL bin directory)"
done

if [ "$(id -u)" -eq 0 ]; then
    cluster_user=postgres
    id -u "$cluster_user" >/dev/null 2>&1 || die "running as root needs a 'postgres' user (Debian's postgresql package creates it)"
    as_cluster_user() {
        if command -v runuser >/dev/null; then
            runuser -u "$cluster_user" -- "$@"
        else
            su "$cluster_user" -s /bin/sh -c '"$0" "$@"' -- "$@"
        fi
    }
else
    cluster_user=$(id -un)
    as_cluster_user() { "$@"; }
fi

# Absolute and without symlinks (the postmaster's working directory is compared with it).
absolute() {
    realpath -m -- "$1"
}

setup_paths() {
    dir=${1%/}
    [ -n "$dir" ] || die "DIR must not be /"
    data="$dir/data"
    log="$dir/postgres.log"
    env_file="$dir/pgdev.env"
    marker="$dir/.postgres-dev"
}

# The pid of this cluster's live postmaster, or failure. Checked against /proc (alive, not a
# zombie, working directory = the data directory) rather than asked of pg_ctl, so a stale pid
# file or a damaged data directory can neither hide a running server nor name a stranger.
postmaster_pid() {
    local pid cwd
    pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null) || return 1
    [[ "$pid" =~ ^[0-9]+$ ]] && alive "$pid" || return 1
    cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || return 1
    [ "${cwd% (deleted)}" = "$data" ] || return 1
    echo "$pid"
}

alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

is_running() {
    postmaster_pid >/dev/null
}

log_tail() {
    if [ -f "$log" ]; then
        echo "--- last lines of $log ---" >&2
        tail -n 30 "$log" >&2 || true
    fi
}

pg_start() {
    (
        # The server is a daemon: it must not keep the caller's descriptors open. (Foundation's
        # Process, for one, sees its child run until every copy of a socket it passed is closed.)
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            if [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ]; then eval "exec $fd>&-"; fi
        done
        as_cluster_user "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start >&2
    )
}

pg_stop() {
    local pid tries
    pid=$(postmaster_pid) || return 0
    as_cluster_user "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >&2 && return 0
    echo "postgres-dev: fast shutdown failed, shutting down immediately" >&2
    as_cluster_user "$bin/pg_ctl" -D "$data" -m immediate -w -t 30 stop >&2 && return 0
    # pg_ctl cannot do it (a damaged data directory): signal the postmaster directly.
    echo "postgres-dev: signalling postmaster $pid" >&2
    kill -QUIT "$pid" 2>/dev/null || true
    for tries in $(seq 1 100); do
        alive "$pid" || return 0
        [ "$tries" -ne 50 ] || kill -KILL "$pid" 2>/dev/null || true
        sleep 0.1
    done
    die "postmaster $pid does not exit"
}

# A port nothing listens on, below the kernel's ephemeral range, so neither outgoing
# connections nor other processes' port-0 binds take it while the server is paused. (Taken
# between this check and the server's bind, the start is retried on another.)
pick_port() {
    local low _ port attempt
    read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || low=32768
    for attempt in $(seq 1 50); do
        if [ "$low" -gt 16000 ]; then
            port=$((15000 + (RANDOM * 32768 + RANDOM) % (low - 15000)))
        else
            port=$((20000 + RANDOM % 10000))
        fi
        # A refused connect means nothing listens there.
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    die "found no free TCP port on 127.0.0.1"
}

print_lines() {
    local user_db=$1 port=$2
    cat <<EOF
PGDEV_DIR=$dir
PGDEV_PORT=$port
PGDEV_HOST=127.0.0.1
PGDEV_SOCKET_DIR=$dir
PGDEV_USER=$cluster_user
PGDEV_DB=$user_db
PGDEV_URL=postgres://$cluster_user@127.0.0.1:$port/$user_db
PGDEV_BIN=$bin
EOF
}

saved() {
    [ -f "$env_file" ] || die "$dir was not started by postgres-dev.sh start (no $env_file)"
    sed -n "s/^$1=//p" "$env_file"
}

# How the WAL's full-page images are compressed: lz4 where the server has it (PostgreSQL 15 or
# later built --with-lz4, as Debian's is), else pglz ("on"). After each checkpoint and each
# autovacuum of a large table the first change to a page writes the whole page to the WAL; with
# svcd's writes landing all over (random users, favourites, idempotency keys) the WAL then grows
# 2-5 times as fast for about 10 s, and commits wait for more of it (Docs/OPERATIONS.md, "The
# database").
wal_compression_method() {
    local major
    major=$("$bin/postgres" --version 2>/dev/null | sed -n 's/^[^0-9]*\([0-9][0-9]*\).*/\1/p')
    if [ "${major:-0}" -ge 15 ] && "$bin/pg_config" --configure 2>/dev/null | grep -q -- '--with-lz4'; then
        echo lz4
    else
        echo on
    fi
}

# The server's own settings (DIR/data/pgdev.conf, included by postgresql.conf).
write_settings() {
    local port=$1 fsync=$2
    {
        echo "# written by Deploy/postgres-dev.sh"
        echo "listen_addresses = '127.0.0.1'"
        echo "port = $port"
        echo "unix_socket_directories = '${dir//\'/\'\'}'"
        echo "max_connections = 300"
        echo "fsync = $fsync"
        echo "synchronous_commit = $fsync"
        echo "full_page_writes = $fsync"
        echo "wal_compression = $(wal_compression_method)"
        echo "logging_collector = off"
        echo "log_line_prefix = '%m [%p] '"
    } >"$data/pgdev.conf"
}

# claim_dir REQUESTED: readies DIR for a new cluster (REQUESTED, which must be empty, or a new
# temporary directory when REQUESTED is empty): its paths set, short enough for the unix socket,
# marked as made here. Sets the caller's created_dir to 1 when it made the directory.
claim_dir() {
    local requested=$1
    if [ -z "$requested" ]; then
        requested=$(mktemp -d "${TMPDIR:-/tmp}/pgdev.XXXXXXXX")
        created_dir=1
    else
        requested=$(absolute "$requested")
        mkdir -p "$requested"
        [ -z "$(ls -A "$requested")" ] || die "$requested is not empty"
    fi
    setup_paths "$(absolute "$requested")"
    # The unix socket lives in DIR; its path has to fit in sun_path (107 bytes).
    [ $((${#dir} + 16)) -le 107 ] || die "DIR path too long for a unix socket: $dir"
    touch "$marker"
}

# fail MESSAGE: a new cluster could not be made: says why with the log's tail, stops the server and
# removes DIR if claim_dir made it (the caller's created_dir).
fail() {
    echo "postgres-dev: $*" >&2
    log_tail
    pg_stop >/dev/null 2>&1 || true
    if [ "$created_dir" -eq 1 ]; then rm -rf "$dir"; fi
    exit 1
}

# check_port: an explicit --port (the caller's port and explicit_port) is 1…65535.
check_port() {
    if [ "$explicit_port" -eq 1 ]; then
        [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || die "bad port: $port"
    fi
}

cmd_start() {
    local requested_dir="" port="" explicit_port=0 db=svc fsync=on created_dir=0
    [ "${PGDEV_FSYNC:-on}" = off ] && fsync=off
    while [ $# -gt 0 ]; do
        case "$1" in
            --port) port=${2:?--port needs a number}; explicit_port=1; shift 2 ;;
            --port=*) port=${1#--port=}; explicit_port=1; shift ;;
            --db) db=${2:?--db needs a name}; shift 2 ;;
            --db=*) db=${1#--db=}; shift ;;
            --no-sync) fsync=off; shift ;;
            -*) usage ;;
            *) [ -z "$requested_dir" ] || usage; requested_dir=$1; shift ;;
        esac
    done
    [[ "$db" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "database name must be a plain identifier: $db"
    check_port
    claim_dir "$requested_dir"

    if [ "$cluster_user" != "$(id -un)" ]; then
        chown -R "$cluster_user:" "$dir"
        as_cluster_user test -w "$dir" -a -x "$dir" \
            || fail "user $cluster_user cannot write $dir (is a parent directory closed to it?)"
    fi
    # From /, so a working directory the cluster user cannot enter (e.g. /root) does no harm.
    cd /

    local sync_flag=()
    [ "$fsync" = on ] || sync_flag=(--no-sync)
    as_cluster_user "$bin/initdb" -D "$data" --auth=trust --encoding=UTF8 --locale=C \
        --username="$cluster_user" "${sync_flag[@]}" >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; fail "initdb failed"; }
    echo "include_if_exists = 'pgdev.conf'" >>"$data/postgresql.conf"

    local attempt log_size
    for attempt in 1 2 3 4 5; do
        [ "$explicit_port" -eq 1 ] || port=$(pick_port)
        write_settings "$port" "$fsync"
        [ "$cluster_user" = "$(id -un)" ] || chown "$cluster_user:" "$data/pgdev.conf" "$dir/initdb.log"
        log_size=$(stat -c %s "$log" 2>/dev/null || echo 0)
        if pg_start; then
            break
        fi
        # Someone else took the port between picking and binding: pick another.
        if [ "$explicit_port" -eq 0 ] && [ "$attempt" -lt 5 ] \
            && tail -c +$((log_size + 1)) "$log" 2>/dev/null | grep -q 'could not bind'; then
            echo "postgres-dev: port $port was taken, trying another" >&2
            continue
        fi
        fail "the server did not start (port $port)"
    done

    as_cluster_user "$bin/psql" -X -q -h "$dir" -p "$port" -U "$cluster_user" -d postgres \
        -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"$db\"" >&2 \
        || fail "could not create database $db"

    print_lines "$db" "$port" >"$env_file"
    [ "$cluster_user" = "$(id -un)" ] || chown "$cluster_user:" "$env_file"
    cat "$env_file"
}

cmd_standby() {
    local primary_dir="" requested_dir="" port="" explicit_port=0 created_dir=0
    while [ $# -gt 0 ]; do
        case "$1" in
            --port) port=${2:?--port needs a number}; explicit_port=1; shift 2 ;;
            --port=*) port=${1#--port=}; explicit_port=1; shift ;;
            -*) usage ;;
            *)
                if [ -z "$primary_dir" ]; then primary_dir=$(absolute "$1")
                elif [ -z "$requested_dir" ]; then requested_dir=$1
                else usage; fi
                shift ;;
        esac
    done
    [ -n "$primary_dir" ] || usage
    check_port
    local primary_port primary_db primary_fsync
    setup_paths "$primary_dir"
    primary_port=$(saved PGDEV_PORT)
    primary_db=$(saved PGDEV_DB)
    primary_fsync=$(sed -n "s/^fsync = //p" "$data/pgdev.conf")
    is_running || die "the primary in $primary_dir does not run"
    claim_dir "$requested_dir"
    [ "$cluster_user" = "$(id -un)" ] || chown -R "$cluster_user:" "$dir"
    cd /
    # The copy and the standby's primary_conninfo (-R) reach the primary over its unix socket.
    as_cluster_user "$bin/pg_basebackup" -h "$primary_dir" -p "$primary_port" -U "$cluster_user" -D "$data" -R -X stream --checkpoint=fast \
        >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log" >&2; fail "pg_basebackup failed"; }
    [ "$explicit_port" -eq 1 ] || port=$(pick_port)
    write_settings "$port" "${primary_fsync:-on}"
    [ "$cluster_user" = "$(id -un)" ] || chown "$cluster_user:" "$data/pgdev.conf"
    pg_start || fail "the standby did not start (port $port)"
    print_lines "$primary_db" "$port" >"$env_file"
    [ "$cluster_user" = "$(id -un)" ] || chown "$cluster_user:" "$env_file"
    cat "$env_file"
}

cmd_crash() {
    [ $# -eq 1 ] || usage
    setup_paths "$(absolute "$1")"
    saved PGDEV_PORT >/dev/null
    cd /
    is_running || return 0
    as_cluster_user "$bin/pg_ctl" -D "$data" -m immediate -w -t 30 stop >&2
}

cmd_promote() {
    [ $# -eq 1 ] || usage
    setup_paths "$(absolute "$1")"
    saved PGDEV_PORT >/dev/null
    cd /
    as_cluster_user "$bin/pg_ctl" -D "$data" -w -t 60 promote >&2
}

cmd_stop() {
    [ $# -eq 1 ] || usage
    setup_paths "$(absolute "$1")"
    [ -e "$dir" ] || return 0
    [ -f "$marker" ] || die "refusing to remove $dir: not made by postgres-dev.sh start"
    cd /
    if [ -d "$data" ]; then pg_stop; fi
    rm -rf "$dir"
}

cmd_pause() {
    [ $# -eq 1 ] || usage
    setup_paths "$(absolute "$1")"
    saved PGDEV_PORT >/dev/null
    cd /
    pg_stop
}

cmd_resume() {
    [ $# -eq 1 ] || usage
    setup_paths "$(absolute "$1")"
    local port
    port=$(saved PGDEV_PORT)
    cd /
    if ! is_running; then
        pg_start || { echo "postgres-dev: the server did not start again on port $port" >&2; log_tail; exit 1; }
    fi
    cat "$env_file"
}

cmd_status() {
    [ $# -eq 1 ] || usage
    setup_paths "$(absolute "$1")"
    saved PGDEV_PORT >/dev/null
    cat "$env_file"
    cd /
    is_running || exit 3
}

[ $# -ge 1 ] || usage
command=$1
shift
case "$command" in
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    pause | halt) cmd_pause "$@" ;;
    resume | restart) cmd_resume "$@" ;;
    status) cmd_status "$@" ;;
    standby) cmd_standby "$@" ;;
    crash) cmd_crash "$@" ;;
    promote) cmd_promote "$@" ;;
    *) usage ;;
esac
