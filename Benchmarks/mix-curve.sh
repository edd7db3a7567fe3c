#!/usr/bin/env bash
# The mix curve: an open-loop C load (one thread, latency from each request's intended send
# time: Benchmarks/c/zmtpgen.c, which speaks ZMTP itself on a 1 ms tick, so that it takes about
# a quarter of the CPU that Benchmarks/c/mixgen.c over libzmq (GENERATOR=mixgen) takes from svcd
# on the same two cores; latencies are up to a tick high) of a fair mix of
# 14 use cases, 55 % reads and 45 % writes, at stepped rates against one `svcd --seed-sample` on
# SQLite; then the same with a popular restaurant (r-000001 given POPULAR_REVIEWS reviews first,
# and every GetReviews and CalculateRestaurantScore of the mix asking for it); with PG=1 also
# the fair mix spread over three svcd instances sharing one throwaway PostgreSQL server.
#
# Per step it prints: offered rate, goodput (answered and not refused, per second), p50 and p99
# of those (ms, from the intended send time), the share refused `overloaded`, the longest a
# refused request waited for its refusal (ms, from its intended send time), the cores svcd used
# (all instances) and the cores the generator used. The knee is the highest rate whose p99 is at
# most 50 ms with at most 1 % refused; after the steps the script runs 2× the knee (and, with
# the popular restaurant, 0.8× the fair mix's knee) and prints the goals with their verdicts.
# The table goes to $OUT_DIR/mix-curve.tsv and the drawing to $OUT_DIR/mix-curve.png (gnuplot).
#
# usage: Benchmarks/mix-curve.sh            (after `swift build -c release --product svcd`)
# environment: SVCD (.build/release/svcd), RATES ("1000 2000 3000 4000 5000 6000 7000 8000 10000
#              12000"), STEP_SECONDS (8), POPULAR_REVIEWS (100000), PG (unset: SQLite only; 1:
#              also PostgreSQL; only: PostgreSQL only, keeping the SQLite rows of OUT_DIR's table),
#              PG_RATES ("250 500 750 1000 1250 1500 2000 3000"), OUT_DIR (Docs), CC (cc),
#              GENERATOR (zmtpgen; or mixgen)
set -euo pipefail
source "$(dirname "$0")/c/common.sh"

SVCD=${SVCD:-$here/../../.build/release/svcd}
[[ -x $SVCD ]] || { echo "no svcd at $SVCD: run 'swift build -c release --product svcd' or set SVCD" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "gnuplot is needed for the drawing: apt-get install gnuplot-nox" >&2; exit 1; }
rates=(${RATES:-1000 2000 3000 4000 5000 6000 7000 8000 10000 12000})
step_seconds=${STEP_SECONDS:-8}
popular_reviews=${POPULAR_REVIEWS:-100000}
out_dir=${OUT_DIR:-$here/../../Docs}
ticks=$(getconf CLK_TCK)
cores=$(nproc)

generator=${GENERATOR:-zmtpgen}
case $generator in
    mixgen) ${CC:-cc} -O2 -o "$work/mixgen" "$here/mixgen.c" -lzmq ;;
    zmtpgen) ${CC:-cc} -O2 -o "$work/zmtpgen" "$here/zmtpgen.c" ;;
    *) echo "GENERATOR must be mixgen or zmtpgen" >&2; exit 2 ;;
esac
${CC:-cc} -O2 -o "$work/loadgen_curve" "$here/loadgen_curve.c" -lzmq

# CPU seconds of the processes $@ so far (a pid that is gone counts 0). With DB_USER set, also
# of every process of that user (the PostgreSQL server and its backends).
cpu_of() {
    local total=0 pid
    [[ -n ${DB_USER:-} ]] && set -- "$@" $(pgrep -u "$DB_USER" || true)
    for pid in "$@"; do total=$(( total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0) )); done
    awk -v t="$total" -v h="$ticks" 'BEGIN { printf "%.2f", t / h }'
}

tsv="$work/mix-curve.tsv"
printf 'series\trate\tgoodput\tp50_ms\tp99_ms\trefused_pct\tsvcd_cores\tgen_cores\trefused_max_ms\n' >"$tsv"
printf '%-10s %7s %8s %8s %8s %9s %11s %6s %5s\n' series rate goodput "p50 ms" "p99 ms" refused "refusal max" svcd gen

# One step: series name, rate, mix file, svcd pids… → prints and records the row; sets
# step_goodput, step_p99, step_refused, step_svcd, step_refused_max.
step() {
    local series=$1 rate=$2 mix=$3; shift 3
    local before after offered sent ok refused other missing p50 p99 max gen seconds refused_p99 refused_max
    before=$(cpu_of "$@")
    read -r offered sent ok refused other missing p50 p99 max gen seconds refused_p99 refused_max <<<"$("$work/$generator" "$rate" "$step_seconds" "$mix")"
    after=$(cpu_of "$@")
    local wall=$(awk -v s="$step_seconds" 'BEGIN { print s + 0.2 }')
    step_goodput=$(awk -v a="$ok" -v b="$other" -v s="$seconds" 'BEGIN { printf "%.0f", (a + b) / s }')
    step_refused=$(awk -v r="$refused" -v m="$missing" -v n="$sent" 'BEGIN { printf "%.2f", 100 * (r + m) / n }')
    step_svcd=$(awk -v a="$after" -v b="$before" -v w="$wall" 'BEGIN { printf "%.2f", (a - b) / w }')
    step_p99=$p99 step_refused_max=$refused_max
    local gen_cores=$(awk -v g="$gen" -v w="$wall" 'BEGIN { printf "%.2f", g / w }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$series" "$rate" "$step_goodput" "$p50" "$p99" "$step_refused" "$step_svcd" "$gen_cores" "$refused_max" >>"$tsv"
    printf '%-10s %7s %8s %8s %8s %8s%% %11s %6s %5s%s\n' "$series" "$rate" "$step_goodput" "$p50" "$p99" "$step_refused" "$refused_max" "$step_svcd" "$gen_cores" \
        "$( (( missing > 0 )) && echo "  ($missing unanswered)")"
    last_gen_cores=$gen_cores
}

# Steps through the rates, then halves the gap between the knee and the next rate twice; sets
# knee, knee_goodput, knee_svcd, knee_gen for the series.
curve() {
    local series=$1 mix=$2; shift 2
    knee=0 knee_goodput=0 knee_svcd=0 knee_gen=0
    local rate above=0
    for rate in "${rates[@]}"; do
        step "$series" "$rate" "$mix" "$@"
        if knee_holds; then
            knee=$rate knee_goodput=$step_goodput knee_svcd=$step_svcd knee_gen=$last_gen_cores
        elif (( above == 0 )); then
            above=$rate
        fi
    done
    local round
    for round in 1 2; do
        (( knee > 0 && above > knee )) || break
        rate=$(( (knee + above) / 200 * 100 ))
        (( rate > knee )) || break
        step "$series" "$rate" "$mix" "$@"
        if knee_holds; then
            knee=$rate knee_goodput=$step_goodput knee_svcd=$step_svcd knee_gen=$last_gen_cores
        else
            above=$rate
        fi
    done
}

# Whether the last step is within the knee's bounds: p99 ≤ 50 ms, at most 1 % refused.
knee_holds() { awk -v p="$step_p99" -v r="$step_refused" 'BEGIN { exit !(p <= 50 && r <= 1) }'; }

verdict() { awk "BEGIN { exit !($1) }" && echo met || echo MISSED; }

echo "$(machine_line); commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown); $step_seconds s per step; $generator"

if [[ ${PG:-} == only ]]; then
    # Keep the SQLite series of the last full run in the table and the drawing.
    [[ -f $out_dir/mix-curve.tsv ]] && grep -v '^series\|^postgres' "$out_dir/mix-curve.tsv" >>"$tsv" || true
else
# --- SQLite, fair mix ---------------------------------------------------------------------
start_svcd "$work/fair"
fair_pid=${pids[-1]}
write_mix "$work/fair.mix" '{{r}}' "$svcd_endpoints"
curve sqlite "$work/fair.mix" "$fair_pid"
fair_knee=$knee
(( fair_knee > 0 )) || { echo "no rate met p99 ≤ 50 ms: no knee" >&2; exit 1; }
step sqlite-2x $(( 2 * fair_knee )) "$work/fair.mix" "$fair_pid"
double_goodput=$step_goodput double_p99=$step_p99 double_refused_max=$step_refused_max
left=$(awk -v c="$cores" -v g="$knee_gen" 'BEGIN { print c - g }')
echo
echo "knee (fair mix, SQLite): $fair_knee/s: svcd $knee_svcd of the $left cores the generator left" \
    "($(ratio "$knee_svcd" "$left")): $(verdict "$knee_svcd / $left >= 0.8") (goal ≥ 0.80)"
echo "at 2× the knee: goodput $double_goodput/s = $(ratio "$double_goodput" "$knee_goodput") of the knee's ($(verdict "$double_goodput / $knee_goodput >= 0.9"), goal ≥ 0.90)," \
    "accepted p99 $double_p99 ms ($(verdict "$double_p99 <= 1000"), goal ≤ 1000), longest wait for a refusal $double_refused_max ms"
kill "$fair_pid"; wait "$fair_pid" 2>/dev/null || true

# --- SQLite, a popular restaurant ------------------------------------------------------------
start_svcd "$work/popular"
popular_pid=${pids[-1]}
read -r review_rate _ <<<"$("$work/loadgen_curve" "$(svcd_field AddReview)" "$popular_reviews" 64 \
    '{"v":1,"id":"{{n}}","params":{"userId":"u-000001","restaurantId":"r-000001","rating":5,"text":"Popular"}}' '"ok":true')"
echo
echo "r-000001 given $popular_reviews reviews ($review_rate/s)"
write_mix "$work/popular.mix" r-000001 "$svcd_endpoints"
curve popular "$work/popular.mix" "$popular_pid"
step popular-0.8 $(( fair_knee * 8 / 10 )) "$work/popular.mix" "$popular_pid"
echo
echo "popular restaurant at 0.8× the fair knee ($(( fair_knee * 8 / 10 ))/s): p99 $step_p99 ms ($(verdict "$step_p99 <= 50"), goal ≤ 50)"
kill "$popular_pid"; wait "$popular_pid" 2>/dev/null || true
{ head -n1 "$tsv"; tail -n +2 "$tsv" | sort -t$'\t' -k1,1 -k2,2n; } >"$out_dir/mix-curve.tsv"
fi

# --- PostgreSQL, three instances ------------------------------------------------------------
if [[ -n ${PG:-} ]]; then
    # A directory of its own (the server runs as the postgres user, which cannot enter $work).
    "$here/../../Deploy/postgres-dev.sh" start >"$work/pg.out" 2>"$work/pg.err"
    pg_dir=$(sed -n 's/^PGDEV_DIR=//p' "$work/pg.out")
    pg_url=$(sed -n 's/^PGDEV_URL=//p' "$work/pg.out")
    trap '"$here/../../Deploy/postgres-dev.sh" stop "$pg_dir" >/dev/null 2>&1 || true; cleanup' EXIT
    texts=() instance_pids=()
    # One at a time: the first seeds the sample data, the others find it there.
    for instance in 1 2 3; do
        start_svcd "$work/pg$instance" --store postgres --database-url "$pg_url"
        texts+=("$svcd_endpoints") instance_pids+=("${pids[-1]}")
    done
    write_mix "$work/pg.mix" '{{r}}' "${texts[@]}"
    echo
    echo "postgres: the svcd column counts the three instances and the PostgreSQL server"
    rates=(${PG_RATES:-250 500 750 1000 1250 1500 2000 3000})
    DB_USER=postgres curve postgres "$work/pg.mix" "${instance_pids[@]}"
    echo
    echo "knee (fair mix, 3 instances on PostgreSQL): $knee/s"
fi

{ head -n1 "$tsv"; tail -n +2 "$tsv" | sort -t$'\t' -k1,1 -k2,2n; } >"$out_dir/mix-curve.tsv"
tsv="$out_dir/mix-curve.tsv"
gnuplot <<EOF
set terminal pngcairo size 1100,700 noenhanced
set output "$out_dir/mix-curve.png"
set multiplot layout 2,1 title "svcd under an open-loop mix ($(machine_line | cut -c1-80))"
set datafile separator "\t"
set key top left
set grid
set ylabel "goodput (answered, not refused) /s"
plot for [s in "sqlite popular postgres"] "$tsv" using (strcol(1) eq s ? \$2 : 1/0):(strcol(1) eq s ? \$3 : 1/0) with linespoints title s
set xlabel "offered rate /s"
set ylabel "p99 ms (log)"
set logscale y
plot for [s in "sqlite popular postgres"] "$tsv" using (strcol(1) eq s ? \$2 : 1/0):(strcol(1) eq s ? \$5 : 1/0) with linespoints title s, 50 with lines dashtype 2 title "50 ms"
unset multiplot
EOF
echo
echo "table: $out_dir/mix-curve.tsv, drawing: $out_dir/mix-curve.png"
