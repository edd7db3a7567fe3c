#!/usr/bin/env bash
# The soak: `svcctl stress` at a steady open-loop rate for a long time (30 minutes by default)
# against one `svcd --seed-sample` on SQLite, or three svcd instances sharing one throwaway
# PostgreSQL server (STORE=postgres), sampling every INTERVAL seconds what a leak or a slow
# drift would show: each svcd's resident memory (VmRSS), open file descriptors and threads,
# the store's size on disk (SQLite: the data directory), and the p99 of the requests answered in
# that interval (svcctl stress --samples, latency from each request's intended send time).
#
# Two mixes: MIX=steady (reads, profile updates, restocks, favourites saved and removed: the
# data does not grow; the event log and the idempotency records still do, pruned by retention)
# and MIX=standard (svcctl stress's default: orders, reviews and registrations add rows all the
# time). For the steady mix it prints the goals with their verdicts: after the first 5 minutes
# RSS grows less than 5 %, descriptors (other than the connections to PostgreSQL, which follow
# the pool by design) and threads stay flat (max − min ≤ 2 per instance), the
# p99 of every later minute (the median of its 10-second p99s) within 2× the first minute's;
# and the stress run's invariants hold (its verdict is clean).
#
# The samples go to $OUT_DIR/soak-$STORE-$MIX.tsv (and -latency.tsv; for PostgreSQL also
# -database.tsv: sessions active, idle in a transaction or waiting for a lock, autovacuum workers,
# checkpoints, the oldest statement, the database's size, the WAL's full-page images and size so
# far), the drawing to $OUT_DIR/soak-$STORE-$MIX.png.
#
# usage: Benchmarks/soak.sh     (after `swift build -c release --product svcd` and
#        `swift build -c release --product svcctl`)
# environment: STORE (sqlite | postgres), MIX (steady | standard), RATE (sqlite 2000, postgres
#              350: about half of what the machine serves — on two cores 2,000/s kept one svcd
#              on SQLite at 1.2 cores, 600/s three on PostgreSQL with the server at 1.7),
#              DURATION (30m), INTERVAL (10), CLIENTS (64), SVCD and SVCCTL (.build/release/…),
#              OUT_DIR (Docs)
set -euo pipefail
source "$(dirname "$0")/c/common.sh"

root=$here/../..
SVCD=${SVCD:-$root/.build/release/svcd}
SVCCTL=${SVCCTL:-$root/.build/release/svcctl}
for binary in "$SVCD" "$SVCCTL"; do
    [[ -x $binary ]] || { echo "no $(basename "$binary") at $binary: run 'swift build -c release --product $(basename "$binary")'" >&2; exit 1; }
done
command -v gnuplot >/dev/null || { echo "gnuplot is needed for the drawing: apt-get install gnuplot-nox" >&2; exit 1; }
store=${STORE:-sqlite}
mix=${MIX:-steady}
case $store in
    sqlite) rate=${RATE:-2000} ;;
    postgres) rate=${RATE:-350} ;;
    *) echo "STORE must be sqlite or postgres" >&2; exit 1 ;;
esac
duration=${DURATION:-30m}
interval=${INTERVAL:-10}
clients=${CLIENTS:-64}
out_dir=${OUT_DIR:-$root/Docs}
name=soak-$store-$mix

svcd_pids=() dirs=()
if [[ $store == sqlite ]]; then
    start_svcd "$work/svcd"
    svcd_pids+=("${pids[-1]}") dirs+=("$work/svcd")
else
    # A directory of its own (the server runs as the postgres user, which cannot enter $work).
    "$root/Deploy/postgres-dev.sh" start >"$work/pg.out" 2>"$work/pg.err"
    pg_dir=$(sed -n 's/^PGDEV_DIR=//p' "$work/pg.out")
    pg_url=$(sed -n 's/^PGDEV_URL=//p' "$work/pg.out")
    trap '"$root/Deploy/postgres-dev.sh" stop "$pg_dir" >/dev/null 2>&1 || true; cleanup' EXIT
    # One at a time: the first seeds the sample data, the others find it there.
    for instance in 1 2 3; do
        start_svcd "$work/pg$instance" --store postgres --database-url "$pg_url"
        svcd_pids+=("${pids[-1]}") dirs+=("$work/pg$instance")
    done
fi

targets=()
for dir in "${dirs[@]}"; do targets+=(--data-dir "$dir"); done
echo "$name: $(machine_line); ${#svcd_pids[@]} svcd (pids ${svcd_pids[*]}), $rate requests/s, mix $mix, $duration"
"$SVCCTL" stress "${targets[@]}" --duration "$duration" --rate "$rate" --clients "$clients" --mix "$mix" \
    --samples "$work/latency.jsonl" --sample-interval "$interval" --json >"$work/report.json" 2>"$work/stress.err" &
stress_pid=$!
pids+=($stress_pid)

# One row per interval: minutes since the stress run started, then per instance RSS (MiB),
# descriptors, how many of them are connections to PostgreSQL (its pool and its LISTEN session:
# they come and go with the load by design) and threads, then the store's size (MiB; SQLite only).
header="minute"
for index in "${!svcd_pids[@]}"; do header+="\trss_mib_$index\tfds_$index\tdb_conns_$index\tthreads_$index"; done
printf "$header\tstore_mib\n" >"$work/process.tsv"
# How many of process $1's descriptors are TCP connections to port $2 (0 when $2 is empty).
db_connections() {
    [[ -n $2 ]] || { echo 0; return; }
    local inodes
    inodes=$(awk -v port="$(printf ':%04X' "$2")" 'FNR > 1 && substr($3, length($3) - 4) == port { print "socket:[" $10 "]" }' \
        "/proc/$1/net/tcp" "/proc/$1/net/tcp6" 2>/dev/null)
    [[ -n $inodes ]] || { echo 0; return; }
    find "/proc/$1/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | grep -cxF -f <(echo "$inodes") || true
}
db_port=
[[ $store == postgres ]] && db_port=$(sed -E 's|.*@[^:/]+:([0-9]+)/.*|\1|' <<<"$pg_url")
# Each instance's threads by name (libzmq's, the endpoints', libdispatch's workers…), to tell
# which kind a change in the count is: written at 5 minutes and at the end.
thread_names() { cat /proc/"$1"/task/*/comm 2>/dev/null | sort | uniq -c | awk '{ n = $1; $1 = ""; print substr($0, 2) "\t" n }'; }
# For PostgreSQL, the database's side of each interval, to explain a stall: its client sessions
# that are running a statement, idle inside a transaction, or waiting for a lock; autovacuum
# workers; checkpoints so far; the oldest running statement (s); the database's size (MiB); and
# the WAL so far: its full-page images (a checkpoint makes the next change to each page write
# the whole page) and its size (MiB).
database_sample() {
    local common="count(*) FILTER (WHERE backend_type = 'client backend' AND state = 'active'),
        count(*) FILTER (WHERE state LIKE 'idle in transaction%'), count(*) FILTER (WHERE wait_event_type = 'Lock'),
        count(*) FILTER (WHERE backend_type = 'autovacuum worker'),
        coalesce(round(extract(epoch FROM max(greatest(now() - query_start, interval '0')) FILTER (WHERE backend_type = 'client backend' AND state = 'active'))::numeric, 2), 0),
        round(pg_database_size(current_database()) / 1048576.0, 1)"
    local wal="(SELECT wal_fpi FROM pg_stat_wal), (SELECT round(wal_bytes / 1048576.0, 1) FROM pg_stat_wal)"
    # PostgreSQL 17 moved the checkpoint counts to pg_stat_checkpointer; pg_stat_wal is 14's.
    local checkpoints
    for checkpoints in "checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter), $wal" \
        "num_timed + num_requested FROM pg_stat_checkpointer), $wal" \
        "checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter), '-', '-'"; do
        "$pg_bin/psql" "$pg_url" -AtF $'\t' -c "SELECT $common, (SELECT $checkpoints FROM pg_stat_activity WHERE pid <> pg_backend_pid()" \
            2>/dev/null && return
    done
    printf -- '-\t-\t-\t-\t-\t-\t-\t-\t-\n'
}
if [[ $store == postgres ]]; then
    pg_bin=$(sed -n 's/^PGDEV_BIN=//p' "$work/pg.out")
    printf "minute\tactive\tidle_in_transaction\twaiting_for_lock\tautovacuum\toldest_statement_s\tdatabase_mib\tcheckpoints\twal_full_page_images\twal_mib\n" >"$work/database.tsv"
fi
# The machine's busy share over the run (all processes: svcd, svcctl, PostgreSQL), from /proc/stat.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
read -r busy_before total_before <<<"$(busy_ticks)"
started=$(date +%s.%N)
names_at_5=
while kill -0 "$stress_pid" 2>/dev/null; do
    if [[ -z $names_at_5 ]] && awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { exit !((n - s) >= 300) }'; then
        for index in "${!svcd_pids[@]}"; do thread_names "${svcd_pids[$index]}" >"$work/threads-5min-$index.tsv"; done
        names_at_5=done
    fi
    row=$(awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { printf "%.3f", (n - s) / 60 }')
    for pid in "${svcd_pids[@]}"; do
        rss=$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status")
        threads=$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status")
        fds=$(ls "/proc/$pid/fd" | wc -l)
        row+="\t$rss\t$fds\t$(db_connections "$pid" "$db_port")\t$threads"
    done
    if [[ $store == sqlite ]]; then
        row+="\t$(du -sk "${dirs[0]}" | awk '{ printf "%.1f", $1 / 1024 }')"
    else
        row+="\t-"
    fi
    printf "$row\n" >>"$work/process.tsv"
    [[ $store == postgres ]] && printf "%s\t%s\n" "${row%%\\t*}" "$(database_sample)" >>"$work/database.tsv"
    sleep "$interval"
done
wait "$stress_pid" && stress_status=0 || stress_status=$?
read -r busy_after total_after <<<"$(busy_ticks)"
awk -v b=$((busy_after - busy_before)) -v t=$((total_after - total_before)) -v c="$(nproc)" \
    'BEGIN { printf "machine: %.2f of %d cores busy over the run (svcd, svcctl and any database together)\n", c * b / t, c }'
for index in "${!svcd_pids[@]}"; do thread_names "${svcd_pids[$index]}" >"$work/threads-end-$index.tsv"; done

# The latency samples as minute, p99 ms, p50 ms, answered in the interval.
python3 - "$work/latency.jsonl" >"$work/latency.tsv" <<'EOF'
import json, sys
print("minute\tp99_ms\tp50_ms\tanswered\trefused_total\terrors_total")
for line in open(sys.argv[1]):
    s = json.loads(line)
    if "p99Ms" in s:
        print(f"{s['second'] / 60:.3f}\t{s['p99Ms']}\t{s['p50Ms']}\t{s['answered']}\t{s['refused']}\t{s['errors']}")
EOF

# Goals and verdicts (printed; the steady mix's are the issue's goals).
python3 - "$work/process.tsv" "$work/latency.tsv" "$work/report.json" "$mix" "$stress_status" "$work" "$work/database.tsv" <<'EOF'
import json, os, statistics, sys
process = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
latency = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
report_text = open(sys.argv[3]).read()
report = json.loads(report_text) if report_text.strip() else {}
mix, stress_status = sys.argv[4], int(sys.argv[5])
head, rows = process[0], [[float(v) if v != "-" else None for v in r] for r in process[1:]]
instances = (len(head) - 2) // 4
after5 = [r for r in rows if r[0] >= 5]
met = lambda ok: "met" if ok else "MISSED"
print(f"samples: {len(rows)} of the processes, {len(latency) - 1} of latency")
all_ok = True
for i in range(instances):
    rss = [r[1 + 4 * i] for r in rows]
    fds = [r[2 + 4 * i] for r in after5]
    pooled = [r[3 + 4 * i] for r in after5]
    own = [f - c for f, c in zip(fds, pooled)]
    threads = [r[4 + 4 * i] for r in after5]
    line = f"instance {i}: RSS {rss[0]:.1f} MiB at the start"
    if after5:
        growth = 100 * (rss[-1] - after5[0][1 + 4 * i]) / after5[0][1 + 4 * i]
        line += f", {after5[0][1 + 4 * i]:.1f} at 5 min, {rss[-1]:.1f} at the end ({growth:+.1f} % after 5 min)"
        line += f"; descriptors {min(fds):.0f}–{max(fds):.0f}"
        if max(pooled) > 0:
            line += f" (connections to PostgreSQL {min(pooled):.0f}–{max(pooled):.0f}, the others {min(own):.0f}–{max(own):.0f})"
        line += f", threads {min(threads):.0f}–{max(threads):.0f} after 5 min"
        if mix == "steady":
            # The pool's connections come and go with the load by design (postgres-nio opens them
            # as requests wait and closes idle ones); a leak shows in the other descriptors.
            ok = growth < 5 and max(own) - min(own) <= 2 and max(threads) - min(threads) <= 2
            all_ok &= ok
            line += f": {met(ok)} (RSS < +5 %, descriptors other than database connections and threads within 2)"
    print(line)
    names = {}
    for when in ("5min", "end"):
        path = os.path.join(sys.argv[6], f"threads-{when}-{i}.tsv")
        if os.path.exists(path):
            for entry in open(path):
                name, count = entry.rstrip("\n").rsplit("\t", 1)
                names.setdefault(name, {})[when] = int(count)
    changed = [f"{name} {c.get('5min', 0)} → {c.get('end', 0)}" for name, c in sorted(names.items()) if c.get("5min", 0) != c.get("end", 0)]
    if names:
        print(f"instance {i}: threads by name, 5 min → end: " + ("; ".join(changed) if changed else "no change"))
if rows and rows[-1][-1] is not None:
    print(f"store: {rows[0][-1]:.1f} MiB at the start, {rows[-1][-1]:.1f} MiB at the end")
minutes = {}
for r in latency[1:]:
    minutes.setdefault(int(float(r[0]) - 1e-9), []).append(float(r[1]))
if minutes:
    per_minute = {m: statistics.median(v) for m, v in sorted(minutes.items())}
    first = per_minute[min(per_minute)]
    worst_minute, worst = max(per_minute.items(), key=lambda kv: kv[1])
    p99s = [float(r[1]) for r in latency[1:]]
    line = (f"p99 per 10 s: {min(p99s):.1f}–{max(p99s):.1f} ms (median {statistics.median(p99s):.1f}); per minute: first {first:.1f} ms, "
            f"highest {worst:.1f} ms in minute {worst_minute + 1} ({worst / first:.2f}×)")
    if mix == "steady":
        ok = worst <= 2 * first
        all_ok &= ok
        line += f": {met(ok)} (every minute within 2× the first)"
    print(line)
if os.path.exists(sys.argv[7]):
    # The database's side: overall, and in the three intervals with the highest p99.
    database = [l.rstrip("\n").split("\t") for l in open(sys.argv[7])][1:]
    wal = [(float(r[8]), float(r[9])) for r in database if len(r) >= 10 and "-" not in r[8:10]]
    database = [[float(v) for v in r[:8]] for r in database if "-" not in r[1:8]]
    if database:
        print(f"database: {database[-1][7] - database[0][7]:.0f} checkpoints, at most {max(r[2] for r in database):.0f} sessions idle in a transaction, "
              f"{max(r[3] for r in database):.0f} waiting for a lock, {max(r[4] for r in database):.0f} autovacuum workers, "
              f"oldest statement {max(r[5] for r in database):.2f} s; {database[0][6]:.1f} → {database[-1][6]:.1f} MiB")
        if wal:
            print(f"  WAL: {wal[-1][1] - wal[0][1]:.1f} MiB written, {wal[-1][0] - wal[0][0]:.0f} full-page images")
        for r in sorted(latency[1:], key=lambda r: -float(r[1]))[:3]:
            near = min(database, key=lambda d: abs(d[0] - float(r[0])))
            print(f"  p99 {float(r[1]):.1f} ms at minute {float(r[0]):.2f}: {near[1]:.0f} active, {near[2]:.0f} idle in a transaction, "
                  f"{near[3]:.0f} waiting for a lock, {near[4]:.0f} autovacuum, oldest statement {near[5]:.2f} s")
load = report.get("load", {})
print(f"stress: exit {stress_status}, clean {report.get('clean')}, violations {report.get('violations')}, refused share {report.get('refusedShare')}; "
      f"{load.get('sent')} sent, {load.get('ok')} ok, {load.get('unexpectedErrors')} unexpected errors, {load.get('outcomeUnknown')} of unknown outcome, {load.get('timeouts')} timeouts; "
      f"whole-run latency µs {json.dumps(report.get('latencyMicros'))}")
if mix == "steady":
    all_ok &= stress_status == 0
    print(f"soak goals: {met(all_ok)}")
EOF

cp "$work/process.tsv" "$out_dir/$name.tsv"
cp "$work/latency.tsv" "$out_dir/$name-latency.tsv"
[[ $store != postgres ]] || cp "$work/database.tsv" "$out_dir/$name-database.tsv"
instances=${#svcd_pids[@]}
gnuplot <<EOF
set terminal pngcairo size 900,$( [[ $store == postgres ]] && echo 1100 || echo 900 ) font ",9"
set output "$out_dir/$name.png"
set datafile separator "\t"
set key autotitle columnhead top left
set multiplot layout $( [[ $store == postgres ]] && echo 5 || echo 4 ),1 title "svcctl stress --mix $mix --rate $rate, $instances svcd on $store ($(machine_line | cut -c1-60))"
set grid
set ylabel "RSS MiB"
plot for [i=0:$((instances - 1))] "$out_dir/$name.tsv" using 1:(column(2 + 4 * i)) with lines title sprintf("svcd %d", i)$( [[ $store == sqlite ]] && echo ", \"$out_dir/$name.tsv\" using 1:(column(2 + 4 * $instances)) with lines title \"store on disk, MiB\"" )
set yrange [0:*]
set ylabel "descriptors"
plot for [i=0:$((instances - 1))] "$out_dir/$name.tsv" using 1:(column(3 + 4 * i)) with lines title sprintf("svcd %d", i)$( [[ $store == postgres ]] && echo ", for [i=0:$((instances - 1))] \"$out_dir/$name.tsv\" using 1:(column(4 + 4 * i)) with lines dashtype 2 title sprintf(\"svcd %d: to PostgreSQL\", i)" )
set ylabel "threads"
plot for [i=0:$((instances - 1))] "$out_dir/$name.tsv" using 1:(column(5 + 4 * i)) with lines title sprintf("svcd %d", i)
set ylabel "latency ms (each 10 s)"
set xlabel "minutes"
plot "$out_dir/$name-latency.tsv" using 1:2 with lines title "p99", "" using 1:3 with lines title "p50"
$( [[ $store == postgres ]] && printf '%s\n' 'set ylabel "PostgreSQL sessions"' \
    "plot \"$out_dir/$name-database.tsv\" using 1:2 with lines title \"running a statement\", \"\" using 1:3 with lines title \"idle in a transaction\", \"\" using 1:4 with lines title \"waiting for a lock\", \"\" using 1:5 with lines title \"autovacuum workers\"" )
unset multiplot
EOF
echo "wrote $out_dir/$name.tsv, $out_dir/$name-latency.tsv and $out_dir/$name.png"
