#!/usr/bin/env bash
# Two svcd builds side by side: the same C client (a plain libzmq DEALER) against each, in
# alternating order, for the reads that run a SQLite query (and GetRestaurant, which does not),
# at 64 in flight (round trips per second) and 1 in flight (p50 latency). Prints per round, then
# the medians and after ÷ before. For judging a change to the read path by its own measure:
# build the "before" binary first and keep a copy of it.
#
# With CURVE=1 both svcd run with --client-keys and the client connects over CURVE: BEFORE's file
# lists the client's key alone (what a build older than callers reads), AFTER's as a caller with
# a rate far above the load (`KEY bench rate=1000000`): what the per-request caller checks (the
# key looked up, allow, a token taken) cost on top of encryption.
#
# BEFORE_ARGS and AFTER_ARGS add flags to one side only: the same binary twice, with
# AFTER_ARGS="--otlp-endpoint http://127.0.0.1:PORT --trace-sampling 0.01", measures what span
# export costs (Scripts/otlp-receiver.py --sink PORT is a collector that costs little).
#
# usage: Benchmarks/c/compare-reads.sh BEFORE_SVCD AFTER_SVCD
# environment: ROUNDS (5), PIPELINED_N (30000), LOCKSTEP_N (3000), SVCD_ARGS (extra svcd flags
#              for both), BEFORE_ARGS, AFTER_ARGS (for one side), WORKLOADS (list reviews menu
#              feed get), CURVE (unset), CC (cc)

set -euo pipefail
source "$(dirname "$0")/common.sh"

[[ $# -eq 2 && -x $1 && -x $2 ]] || { echo "usage: $0 BEFORE_SVCD AFTER_SVCD (two svcd executables)" >&2; exit 64; }
rounds=${ROUNDS:-5}
pipelined_n=${PIPELINED_N:-30000}
lockstep_n=${LOCKSTEP_N:-3000}

build_c_programs
client_public='' client_secret=''
if [[ -n ${CURVE:-} ]]; then
    read -r client_public client_secret < <("$work/echo_curve" --keypair)
    printf '%s\n' "$client_public" >"$work/client-keys-before"
    printf '%s bench rate=1000000\n' "$client_public" >"$work/client-keys-after"
fi
declare -A endpoints=()
for side in before after; do
    if [[ $side == before ]]; then SVCD=$1; side_args=${BEFORE_ARGS:-}; else SVCD=$2; side_args=${AFTER_ARGS:-}; fi
    curve_args=()
    [[ -z ${CURVE:-} ]] || curve_args=(--client-keys "$work/client-keys-$side")
    # shellcheck disable=SC2086 # SVCD_ARGS and the side's arguments are lists of flags
    start_svcd "$work/$side" ${SVCD_ARGS:-} $side_args "${curve_args[@]}"
    endpoints[$side]=$svcd_endpoints
done

# name → "USE_CASE|PAYLOAD|MUST_CONTAIN"
read -r -a workloads <<<"${WORKLOADS:-list reviews menu feed get}"
declare -A workload=(
    [list]='ListRestaurants|{"v":1,"id":"{{n}}","params":{"limit":20}}|"nextCursor"'
    [reviews]='GetReviews|{"v":1,"id":"{{n}}","params":{"restaurantId":"r-000042","limit":20}}|"nextCursor"'
    [menu]='GetMenu|{"v":1,"id":"{{n}}","params":{"restaurantId":"r-000042"}}|"items"'
    [feed]='LoadFeed|{"v":1,"id":"{{n}}","params":{"limit":20}}|"nextCursor"'
    [get]='GetRestaurant|{"v":1,"id":"{{n}}","params":{"restaurantId":"r-000042"}}|"ok":true'
)

echo "$(machine_line); before $1 ${BEFORE_ARGS:-}, after $2 ${AFTER_ARGS:-}"
echo "$rounds rounds; per round and request before then after (after first in even rounds)"
echo
declare -A rates=() p50s=()
bad=0
for round in $(seq "$rounds"); do
    for name in "${workloads[@]}"; do
        IFS='|' read -r use_case payload must <<<"${workload[$name]}"
        order=(before after)
        (( round % 2 == 0 )) && order=(after before)
        for side in "${order[@]}"; do
            svcd_endpoints=${endpoints[$side]}
            endpoint=$(svcd_field "$use_case")
            export CURVE_SERVERKEY=$(svcd_field useCaseServerKey) CURVE_PUBLICKEY=$client_public CURVE_SECRETKEY=$client_secret
            read -r rate _ _ failed_p <<<"$("$work/loadgen_curve" "$endpoint" "$pipelined_n" 64 "$payload" "$must")"
            read -r _ p50 _ failed_l <<<"$("$work/loadgen_curve" "$endpoint" "$lockstep_n" 1 "$payload" "$must")"
            bad=$(( bad + failed_p + failed_l ))
            rates[$side,$name]+="$rate"$'\n'
            p50s[$side,$name]+="$p50"$'\n'
            printf 'round %d %-16s %-6s 64 in flight %8s rt/s   1 in flight p50 %7s µs\n' "$round" "$use_case" "$side" "$rate" "$p50"
        done
    done
done
(( bad == 0 )) || { echo "bad replies: $bad" >&2; exit 1; }

echo
echo "medians of $rounds rounds   64 in flight: before     after  after÷before | 1 in flight p50: before     after  after÷before"
for name in "${workloads[@]}"; do
    IFS='|' read -r use_case _ _ <<<"${workload[$name]}"
    rb=$(printf '%s' "${rates[before,$name]}" | median); ra=$(printf '%s' "${rates[after,$name]}" | median)
    lb=$(printf '%s' "${p50s[before,$name]}" | median); la=$(printf '%s' "${p50s[after,$name]}" | median)
    printf '%-16s %20.0f %9.0f %13s | %16.1f µs %6.1f µs %12s\n' "$use_case" "$rb" "$ra" "$(ratio "$ra" "$rb")" "$lb" "$la" "$(ratio "$la" "$lb")"
done
