#!/usr/bin/env bash
# The raw libzmq limit with and without CURVE, in C: builds echo_curve and loadgen_curve into a
# temporary directory, starts one echo in plaintext and one as a CURVE server (both on
# tcp://127.0.0.1, ephemeral ports), and runs the C client against each, alternating, for ROUNDS
# rounds at 64 in flight (pipelined) and 1 in flight (lockstep). Prints every run, the medians
# and the CURVE ÷ plaintext ratios.
#
# With SVCD=/path/to/svcd it also starts two svcd (temporary data directories, --port-base 0,
# --seed-sample; one plaintext, one with --client-keys) and runs the same C client against
# their GetRestaurant endpoints, alternating with the echo runs.
#
# usage: Benchmarks/c/run-curve-baseline.sh
# environment: ROUNDS (3), PIPELINED_N (1000000), LOCKSTEP_N (20000), SVCD (unset), CC (cc)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
rounds=${ROUNDS:-3}
pipelined_n=${PIPELINED_N:-1000000}
lockstep_n=${LOCKSTEP_N:-20000}
payload='{"v":1,"id":"{{n}}","params":{"restaurantId":"r-000042"}}'
work=$(mktemp -d "${TMPDIR:-/tmp}/curve-baseline.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

${CC:-cc} -O2 -o "$work/echo_curve" "$here/echo_curve.c" -lzmq
${CC:-cc} -O2 -o "$work/loadgen_curve" "$here/loadgen_curve.c" -lzmq

read -r echo_public echo_secret < <("$work/echo_curve" --keypair)
read -r client_public client_secret < <("$work/echo_curve" --keypair)

# Starts an echo (CURVE when $2 is a secret key) and sets the variable named $1 to its bound
# address. (Not in a $(…) subshell: the pid must reach `pids` for the cleanup.)
start_echo() {
    local out="$work/echo.$1.out"
    CURVE_SECRETKEY="$2" "$work/echo_curve" 'tcp://127.0.0.1:*' >"$out" &
    pids+=($!)
    for _ in $(seq 200); do [[ -s $out ]] && break; sleep 0.05; done
    [[ -s $out ]] || { echo "the echo did not start" >&2; exit 1; }
    printf -v "$1" '%s' "$(head -n1 "$out")"
}
start_echo echo_plain ""
start_echo echo_curve "$echo_secret"

# Starts svcd in data directory $1 with the arguments after it, waits for its endpoints.json,
# then sets svcd_address (GetRestaurant) and svcd_key (useCaseServerKey, empty in plaintext).
start_svcd() {
    local dir=$1; shift
    "$SVCD" --data-dir "$dir" --port-base 0 --seed-sample --log-level warning "$@" >"$dir.log" 2>&1 &
    local pid=$!
    pids+=($pid)
    for _ in $(seq 1200); do
        if [[ -s $dir/endpoints.json ]] && grep -q "\"pid\":$pid[,}]" "$dir/endpoints.json"; then
            local file
            file=$(cat "$dir/endpoints.json")
            svcd_address=$(sed -n 's/.*"GetRestaurant":"\([^"]*\)".*/\1/p' <<<"$file")
            svcd_key=$(sed -n 's/.*"useCaseServerKey":"\([^"]*\)".*/\1/p' <<<"$file")
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || { echo "svcd exited; see its log:" >&2; cat "$dir.log" >&2; exit 1; }
        sleep 0.1
    done
    echo "svcd did not write endpoints.json in 120 s" >&2
    exit 1
}

# target name → "ENDPOINT|SERVERKEY|MUST_CONTAIN"
declare -A targets=(
    [echo-plaintext]="$echo_plain||restaurantId"
    [echo-CURVE]="$echo_curve|$echo_public|restaurantId"
)
order=(echo-plaintext echo-CURVE)
if [[ -n ${SVCD:-} ]]; then
    printf '# svcd: %s\n%s\n' "client key of run-curve-baseline.sh" "$client_public" >"$work/client-keys"
    start_svcd "$work/svcd-plaintext"
    [[ -z $svcd_key ]] || { echo "the plaintext svcd published a useCaseServerKey" >&2; exit 1; }
    targets[svcd-plaintext]="$svcd_address||\"ok\":true"
    start_svcd "$work/svcd-curve" --client-keys "$work/client-keys"
    [[ -n $svcd_key ]] || { echo "svcd --client-keys published no useCaseServerKey" >&2; exit 1; }
    targets[svcd-CURVE]="$svcd_address|$svcd_key|\"ok\":true"
    order+=(svcd-plaintext svcd-CURVE)
fi

# One run: prints "RT_PER_S P50_US P99_US BAD".
run() {
    local target=$1 n=$2 w=$3 endpoint key must
    IFS='|' read -r endpoint key must <<<"${targets[$target]}"
    CURVE_SERVERKEY="$key" CURVE_PUBLICKEY="$client_public" CURVE_SECRETKEY="$client_secret" \
        "$work/loadgen_curve" "$endpoint" "$n" "$w" "$payload" "$must"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "libzmq $(sed -n 's/#define ZMQ_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' /usr/include/zmq.h | paste -sd.), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "payload $payload; $rounds rounds; per round plaintext then CURVE (CURVE first in even rounds)"
echo
for setting in "64 $pipelined_n" "1 $lockstep_n"; do
    read -r w n <<<"$setting"
    declare -A results=()
    for round in $(seq "$rounds"); do
        for pair in $(seq 0 2 $((${#order[@]} - 1))); do
            first=${order[$pair]} second=${order[$pair + 1]}
            (( round % 2 == 0 )) && { first=${order[$pair + 1]}; second=${order[$pair]}; }
            for target in "$first" "$second"; do
                line=$(run "$target" "$n" "$w")
                read -r rate p50 p99 bad <<<"$line"
                # loadgen measures latency only in lockstep (W = 1).
                if (( w == 1 )); then
                    printf 'in-flight %2d round %d %-15s %9s rt/s  p50 %6s µs  p99 %6s µs  bad %s\n' "$w" "$round" "$target" "$rate" "$p50" "$p99" "$bad"
                else
                    printf 'in-flight %2d round %d %-15s %9s rt/s  bad %s\n' "$w" "$round" "$target" "$rate" "$bad"
                fi
                results[$target]+="$line"$'\n'
            done
        done
    done
    echo "median, $w in flight:"
    for target in "${order[@]}"; do
        rate=$(printf '%s' "${results[$target]}" | cut -d' ' -f1 | median)
        p50=$(printf '%s' "${results[$target]}" | cut -d' ' -f2 | median)
        if (( w == 1 )); then
            printf '  %-15s %9.0f rt/s  p50 %6.1f µs\n' "$target" "$rate" "$p50"
        else
            printf '  %-15s %9.0f rt/s\n' "$target" "$rate"
        fi
        printf -v "median_rate_${target//-/_}" '%s' "$rate"
        printf -v "median_p50_${target//-/_}" '%s' "$p50"
    done
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "n/a" }'; }
    for base in echo svcd; do
        plain_rate="median_rate_${base}_plaintext" curve_rate="median_rate_${base}_CURVE"
        plain_p50="median_p50_${base}_plaintext" curve_p50="median_p50_${base}_CURVE"
        [[ -n ${!plain_rate:-} ]] || continue
        line="  $base CURVE ÷ plaintext: rt/s $(ratio "${!curve_rate}" "${!plain_rate}")"
        (( w == 1 )) && line+=", p50 $(ratio "${!curve_p50}" "${!plain_p50}")"
        echo "$line"
    done
    if [[ -n ${SVCD:-} ]]; then
        line="  svcd CURVE ÷ echo CURVE: rt/s $(ratio "$median_rate_svcd_CURVE" "$median_rate_echo_CURVE")"
        (( w == 1 )) && line+=", p50 $(ratio "$median_p50_svcd_CURVE" "$median_p50_echo_CURVE")"
        echo "$line"
    fi
    unset results
    echo
done
