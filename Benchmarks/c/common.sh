# Shared by the baseline scripts beside it (sourced, not run): builds the C echo and client into
# a temporary directory, starts echoes and svcd processes, writes mixgen's mix, and computes
# medians and ratios.
# Every process started here is stopped and the directory removed when the script exits.
#
# After sourcing: $work is the directory, $here this folder; call `build_c_programs` first.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/baseline.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# The C echo (a ROUTER that sends every message straight back) and the C client (a DEALER that
# keeps W requests in flight and prints "RT_PER_S P50_US P99_US BAD"), both only libzmq.
build_c_programs() {
    ${CC:-cc} -O2 -o "$work/echo_curve" "$here/echo_curve.c" -lzmq
    ${CC:-cc} -O2 -o "$work/loadgen_curve" "$here/loadgen_curve.c" -lzmq
}

# Starts an echo (CURVE when $2 is a secret key; answering every request with the body in file
# $3 when given, the reply server) and sets the variable named $1 to its bound address. (Not in a $(…) subshell: the pid must reach `pids` for the cleanup.)
start_echo() {
    local out="$work/echo.$1.out"
    CURVE_SECRETKEY="${2:-}" "$work/echo_curve" 'tcp://127.0.0.1:*' ${3:+"$3"} >"$out" &
    pids+=($!)
    for _ in $(seq 200); do [[ -s $out ]] && break; sleep 0.05; done
    [[ -s $out ]] || { echo "the echo did not start" >&2; exit 1; }
    printf -v "$1" '%s' "$(head -n1 "$out")"
}

# Starts $SVCD in data directory $1 with the arguments after it (ephemeral ports, sample data),
# waits for its endpoints.json and sets svcd_endpoints to that file's text.
start_svcd() {
    local dir=$1; shift
    "$SVCD" --data-dir "$dir" --port-base 0 --seed-sample --log-level warning "$@" >"$dir.log" 2>&1 &
    local pid=$!
    pids+=($pid)
    for _ in $(seq 1200); do
        if [[ -s $dir/endpoints.json ]] && grep -q "\"pid\":$pid[,}]" "$dir/endpoints.json"; then
            svcd_endpoints=$(cat "$dir/endpoints.json")
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || { echo "svcd exited; see its log:" >&2; cat "$dir.log" >&2; exit 1; }
        sleep 0.1
    done
    echo "svcd did not write endpoints.json in 120 s" >&2
    exit 1
}

# The value of key $1 (a use-case name or useCaseServerKey) in svcd_endpoints.
svcd_field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p" <<<"$svcd_endpoints"; }

# The fair mix of mixgen.c (mix-curve.sh, stress-cost.sh): use case, weight, params ({{r}} {{u}}
# {{m}} {{k}}: see mixgen.c); $1, when given, replaces the restaurant of GetReviews and
# CalculateRestaurantScore (the popular restaurant).
mix_lines() {
    local scored=${1:-'{{r}}'}
    cat <<EOF
GetRestaurant	12	{"restaurantId":"{{r}}","userId":"{{u}}"}
ListRestaurants	6	{"limit":20}
SearchRestaurants	5	{"query":"Golden","limit":20}
GetReviews	6	{"restaurantId":"$scored","limit":20}
CalculateRestaurantScore	6	{"restaurantId":"$scored"}
GetMenu	8	{"restaurantId":"{{r}}"}
GetUserProfile	6	{"userId":"{{u}}"}
LoadFeed	3	{"limit":20}
ListOrders	3	{"userId":"{{u}}","limit":20}
RegisterUser	8	{"name":"Mix User","email":"mix-{{k}}@example.com"}
AddReview	10	{"userId":"{{u}}","restaurantId":"{{r}}","rating":4,"text":"Mixed load"}
SaveFavoriteRestaurant	10	{"userId":"{{u}}","restaurantId":"{{r}}"}
PlaceOrder	10	{"userId":"{{u}}","items":[{"itemId":"{{m}}","quantity":1}],"deliveryAddress":"1 Mix St"}
RestockMenuItem	7	{"itemId":"{{m}}","quantity":5}
EOF
}

# Writes the mixgen file $1 for the instances whose endpoints.json texts follow, each instance
# taking an equal share of every line.
write_mix() {
    local file=$1 scored=$2; shift 2
    : >"$file"
    local endpoints use_case weight params
    for endpoints in "$@"; do
        svcd_endpoints=$endpoints
        while IFS=$'\t' read -r use_case weight params; do
            printf '%s\t%s\t{"v":1,"id":"{{n}}","params":%s}\n' "$weight" "$(svcd_field "$use_case")" "$params" >>"$file"
        done < <(mix_lines "$scored")
    done
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# $1 ÷ $2 with $3 decimals (2 by default); n/a when $2 is not positive.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b > 0) printf "%." d "f", a / b; else print "n/a" }'; }

machine_line() {
    echo "libzmq $(sed -n 's/#define ZMQ_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' /usr/include/zmq.h | paste -sd.), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
}
