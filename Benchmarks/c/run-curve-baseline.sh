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

source "$(dirname "$0")/common.sh"
rounds=${ROUNDS:-3}
pipelined_n=${PIPELINED_N:-1000000}
lockstep_n=${LOCKSTEP_N:-20000}
payload='{"v":1,"id":"{{n}}","params":{"restaurantId":"r-000042"}}'

build_c_programs
read -r echo_public echo_secret < <("$work/echo_curve" --keypair)
read -r client_public client_secret < <("$work/echo_curve" --keypair)

start_echo echo_plain ""
start_echo echo_curve "$echo_secret"

# Starts svcd (see common.sh), then sets svcd_address (GetRestaurant) and svcd_key
# (useCaseServerKey, empty in plaintext).
start_svcd_endpoint() {
    start_svcd "$@"
    svcd_address=$(svcd_field GetRestaurant)
    svcd_key=$(svcd_field useCaseServerKey)
}

# target name → "ENDPOINT|SERVERKEY|MUST_CONTAIN"
declare -A targets=(
    [echo-plaintext]="$echo_plain||restaurantId"
    [echo-CURVE]="$echo_curve|$echo_public|restaurantId"
)
order=(echo-plaintext echo-CURVE)
if [[ -n ${SVCD:-} ]]; then
    printf '# svcd: %s\n%s\n' "client key of run-curve-baseline.sh" "$client_public" >"$work/client-keys"
    start_svcd_endpoint "$work/svcd-plaintext"
    [[ -z $svcd_key ]] || { echo "the plaintext svcd published a useCaseServerKey" >&2; exit 1; }
    targets[svcd-plaintext]="$svcd_address||\"ok\":true"
    start_svcd_endpoint "$work/svcd-curve" --client-keys "$work/client-keys"
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

machine_line
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
    for base in echo svcd; do
        plain_rate="median_rate_${base}_plaintext" curve_rate="median_rate_${base}_CURVE"
        plain_p50="median_p50_${base}_plaintext" curve_p50="median_p50_${base}_CURVE"
        [[ -n ${!plain_rate:-} ]] || continue
        line="  $base CURVE ÷ plaintext: rt/s $(ratio "${!curve_rate}" "${!plain_rate}")×"
        (( w == 1 )) && line+=", p50 $(ratio "${!curve_p50}" "${!plain_p50}")×"
        echo "$line"
    done
    if [[ -n ${SVCD:-} ]]; then
        line="  svcd CURVE ÷ echo CURVE: rt/s $(ratio "$median_rate_svcd_CURVE" "$median_rate_echo_CURVE")×"
        (( w == 1 )) && line+=", p50 $(ratio "$median_p50_svcd_CURVE" "$median_p50_echo_CURVE")×"
        echo "$line"
    fi
    unset results
    echo
done
