#!/usr/bin/env bash
# BookSim2 and weft's Anton 2 emulator side by side on an 8×8×8 torus at half of saturation (issue
# 56), alternating, CPU seconds beside wall seconds: torus link crossings (flit link-hops) a CPU
# second each, and weft's against BookSim2's.
#
# - BookSim2: a k-ary 3-cube of its input-queued routers, dimension-order routing, 4 VCs of 8 flits,
#   uniform random one-flit packets at half of its saturation (its accepted rate levels off at about
#   0.48 flits a node a cycle on 8×8×8: BOOKSIM_RATE=0.24). Its link crossings are the accepted flit
#   rate × nodes × cycles taken × (average hops − 1): BookSim counts the routers a flit passes, the
#   source's included.
# - weft: dist/test/bench/peers/anton2-steady.js — every ASIC's 16-router mesh, adapters and both
#   torus slices, one-flit packets from 16 cores a node at half of saturation; its figure is the
#   flits that crossed a torus channel (every mesh, skip and adapter hop in between is work it does
#   that BookSim's torus router does not: flitHops says how much).
#
# BookSim2 is built from source outside the repository (never a dependency):
#   git clone https://github.com/booksim/booksim2 && (cd booksim2/src && make -j2)   # needs flex, bison
# and weft is built (npm run build). Usage:
#   test/bench/peers/booksim-torus.sh BOOKSIM [ROUNDS]      e.g. …/booksim2/src/booksim 3
set -euo pipefail

BOOKSIM=${1:?usage: booksim-torus.sh BOOKSIM [ROUNDS]}
ROUNDS=${2:-3}
[ -x "$BOOKSIM" ] || { echo "not an executable: $BOOKSIM" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a whole number from 1, got '$ROUNDS'" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
WEFT="$REPO/dist/test/bench/peers/anton2-steady.js"
[ -e "$WEFT" ] || { echo "weft is not built: run npm run build in $REPO" >&2; exit 2; }
WORK=${WORK:-/tmp/booksim-torus}
K=${K:-8}
RATE=${BOOKSIM_RATE:-0.24}
mkdir -p "$WORK"
NODES=$((K * K * K))

cat > "$WORK/torus.cfg" <<EOF
topology = torus;
k = $K;
n = 3;
routing_function = dim_order;
num_vcs = 4;
vc_buf_size = 8;
traffic = uniform;
packet_size = 1;
injection_rate = $RATE;
sim_type = latency;
warmup_periods = 1;
sample_period = 1000;
max_samples = 2;
sim_count = 1;
seed = 7;
EOF

# One BookSim2 run: prints "wall cpu linkhops".
booksim_run() {
  local out="$WORK/booksim.out" times="$WORK/booksim.time"
  # BookSim2 exits with status 255 after a normal run (time notes it first): its statistics say whether it ran.
  /usr/bin/time -f "%e %U %S" -o "$times" "$BOOKSIM" "$WORK/torus.cfg" > "$out" 2>&1 || true
  local cycles rate hops
  cycles=$(grep -o 'Time taken is [0-9]*' "$out" | tail -1 | awk '{print $4}')
  rate=$(grep 'Accepted flit rate average' "$out" | tail -1 | sed 's/.*= *//; s/ .*//')
  hops=$(grep '^Hops average' "$out" | tail -1 | sed 's/.*= *//; s/ .*//')
  [ -n "$cycles" ] && [ -n "$rate" ] && [ -n "$hops" ] || { echo "BookSim2 gave no statistics (see $out)" >&2; exit 1; }
  awk -v t="$(tail -1 "$times")" -v c="$cycles" -v r="$rate" -v h="$hops" -v n="$NODES" \
    'BEGIN { split(t, a, " "); printf "%.2f %.2f %.0f\n", a[1], a[2] + a[3], r * n * c * (h - 1) }'
}

# One weft run: prints "wall cpu linkhops flithops".
weft_run() {
  node --max-inlined-bytecode-size-cumulative=5000 --max-inlined-bytecode-size=700 --min-inlining-frequency=0 "$WEFT" "$K" 0.5 1500 1000 |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);console.log(r.wallSeconds.toFixed(2),r.cpuSeconds.toFixed(2),r.torusLinkHops,r.flitHops)})'
}

printf '%-8s %-6s %9s %8s %14s %18s\n' round who wall_s cpu_s link_hops link_hops/cpu_s
BS=()
WF=()
for round in $(seq 1 "$ROUNDS"); do
  read -r wall cpu hops < <(booksim_run)
  rate=$(awk -v h="$hops" -v c="$cpu" 'BEGIN { printf "%.0f", h / c }')
  BS+=("$rate")
  printf '%-8s %-6s %9s %8s %14s %18s\n' "$round" booksim "$wall" "$cpu" "$hops" "$rate"
  read -r wall cpu hops flits < <(weft_run)
  rate=$(awk -v h="$hops" -v c="$cpu" 'BEGIN { printf "%.0f", h / c }')
  WF+=("$rate")
  printf '%-8s %-6s %9s %8s %14s %18s   (all flit-hops: %s)\n' "$round" weft "$wall" "$cpu" "$hops" "$rate" "$flits"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
b=$(median "${BS[@]}")
w=$(median "${WF[@]}")
awk -v b="$b" -v w="$w" 'BEGIN { printf "median torus link-hops a CPU second: BookSim2 %.0f, weft %.0f: weft %.2f× BookSim2\n", b, w, w / b }'
