#!/usr/bin/env bash
# What the load generator `svcctl stress` costs per request, against two C open-loop generators
# of the same mix at the same offered rates, in alternating runs against one `svcd --seed-sample`
# on SQLite (release builds, the same two cores): Benchmarks/c/mixgen.c (one thread over libzmq,
# woken per reply) and Benchmarks/c/zmtpgen.c (one thread speaking ZMTP itself, a 1 ms tick:
# svcctl's own design, in C, so the floor of that design).
#
# svcctl's CPU of the load alone is the difference of a long and a short run (set-up and
# invariant checks cancel out) divided by the difference of their requests; the C generators' is
# what they measure themselves (getrusage over their send/receive loop) divided by their requests.
# Each rate and round prints the three, svcctl's ratio to zmtpgen, and the verdict on the goal
# (svcctl ≤ 30 µs of CPU per request).
#
# usage: Benchmarks/stress-cost.sh   (after `swift build -c release --product svcd && swift build -c release --product svcctl`)
# environment: SVCD, SVCCTL (.build/release/…), RATES ("2500 5000 8000"), ROUNDS (2),
#              LONG_SECONDS (8), SHORT_SECONDS (2), CLIENTS (64), CC (cc), SVCCTL_ARGS (more
#              arguments for `svcctl stress`, e.g. "--tick-ms 0" to compare the wake-up per reply)
set -euo pipefail
source "$(dirname "$0")/c/common.sh"

SVCD=${SVCD:-$here/../../.build/release/svcd}
SVCCTL=${SVCCTL:-$here/../../.build/release/svcctl}
for tool in "$SVCD" "$SVCCTL"; do
    [[ -x $tool ]] || { echo "no $tool: run 'swift build -c release --product svcd && swift build -c release --product svcctl'" >&2; exit 1; }
done
rates=(${RATES:-2500 5000 8000})
rounds=${ROUNDS:-2}
long=${LONG_SECONDS:-8} short=${SHORT_SECONDS:-2}
clients=${CLIENTS:-64}

${CC:-cc} -O2 -o "$work/mixgen" "$here/mixgen.c" -lzmq
${CC:-cc} -O2 -o "$work/zmtpgen" "$here/zmtpgen.c"
start_svcd "$work/svcd"
write_mix "$work/fair.mix" '{{r}}' "$svcd_endpoints"

# CPU seconds (user + system) of `svcctl stress` for $1 seconds at $2 requests/s (bash's `times`
# in a subshell: its second line is what the subshell's children used).
svcctl_cpu() {
    (
        "$SVCCTL" stress --data-dir "$work/svcd" --duration "${1}s" --rate "$2" --clients "$clients" --seed 7 --no-progress --json ${SVCCTL_ARGS:-} \
            >"$work/stress.json" 2>"$work/stress.err" || true
        times
    ) | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}

echo "$(machine_line); commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "svcctl stress: $clients clients, default threads; CPU per request of the load phase (${long} s − ${short} s runs)"
printf '%-6s %6s %10s %10s %10s %8s %7s  %s\n' round rate "mixgen µs" "zmtpgen µs" "svcctl µs" "/zmtpgen" "goal" "svcctl's run"
# CPU µs per request of C generator $1 at $2 requests/s for the long run.
generator_us() {
    read -r _ sent _ _ _ _ _ _ _ gen_cpu _ <<<"$("$1" "$2" "$long" "$work/fair.mix" 1)"
    awk -v c="$gen_cpu" -v n="$sent" 'BEGIN { printf "%.1f", c / n * 1e6 }'
}
for round in $(seq "$rounds"); do
    for rate in "${rates[@]}"; do
        mixgen_us=$(generator_us "$work/mixgen" "$rate")
        zmtpgen_us=$(generator_us "$work/zmtpgen" "$rate")
        long_cpu=$(svcctl_cpu "$long" "$rate")
        clean=$(grep -Eq '"clean": *true' "$work/stress.json" && echo clean || echo "NOT CLEAN")
        short_cpu=$(svcctl_cpu "$short" "$rate")
        svcctl_us=$(awk -v a="$long_cpu" -v b="$short_cpu" -v r="$rate" -v l="$long" -v s="$short" 'BEGIN { printf "%.1f", (a - b) / (r * (l - s)) * 1e6 }')
        printf '%-6s %6s %10s %10s %10s %8s %7s  %s\n' "$round" "$rate" "$mixgen_us" "$zmtpgen_us" "$svcctl_us" "$(ratio "$svcctl_us" "$zmtpgen_us")" \
            "$(awk -v u="$svcctl_us" 'BEGIN { print (u <= 30) ? "met" : "MISSED" }')" "$clean"
    done
done
