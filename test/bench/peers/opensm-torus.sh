#!/usr/bin/env bash
# OpenSM's torus-2QoS and weft side by side on the same tori (issue 55): for each size, OpenSM on an
# ibsim torus of that size — brought up, then one cable cut and one switch dead, each timed from the
# fault to OpenSM's next "SUBNET UP" — and then weft's reaction through the service to the same
# faults on its BlueGene/L and Anton 2 fabrics of that size (npm run bench, "reaction through the
# service"), alternating. CPU seconds beside wall seconds: OpenSM's from /proc (every thread of the
# opensm process; ibsim's apart), weft's the service thread's (cpuMs, bringUpCpuMs).
#
# OpenSM and ibsim are built from source outside the repository (never a dependency):
#   git clone https://github.com/linux-rdma/opensm && (cd opensm && ./autogen.sh && ./configure --prefix=$PWD/../install && make -j2 install)
#   git clone https://github.com/linux-rdma/ibsim && (cd ibsim && make -j2)
#   (Debian: apt-get install autoconf automake libtool libtool-bin flex bison libibumad-dev libibmad-dev)
# and weft is built (npm run build). Usage:
#   test/bench/peers/opensm-torus.sh OPENSM IBSIM_DIR [SIZE…]      e.g. …/install/sbin/opensm …/ibsim 8 16
# Prints one line per measurement; the raw logs stay in $WORK (default /tmp/opensm-torus).
set -euo pipefail

OPENSM=${1:?usage: opensm-torus.sh OPENSM IBSIM_DIR [SIZE…]}
IBSIM_DIR=${2:?usage: opensm-torus.sh OPENSM IBSIM_DIR [SIZE…]}
shift 2
if [ $# -eq 0 ]; then SIZES=(8 16); else SIZES=("$@"); fi
IBSIM="$IBSIM_DIR/ibsim/ibsim"
UMAD2SIM="$IBSIM_DIR/umad2sim/libumad2sim.so"
for f in "$OPENSM" "$IBSIM" "$UMAD2SIM"; do [ -e "$f" ] || { echo "not found: $f" >&2; exit 2; }; done
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
[ -e "$REPO/dist/test/bench/run-benchmarks.js" ] || { echo "weft is not built: run npm run build in $REPO" >&2; exit 2; }
WORK=${WORK:-/tmp/opensm-torus}
TICK=$(getconf CLK_TCK)
mkdir -p "$WORK"

cpu_s() { awk -v t="$TICK" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$1/stat"; }
now_s() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
# Waits for the log's n-th "SUBNET UP" (up to $2 s).
subnet_up() {
  local n=$1 limit=$2 start
  start=$(now_s)
  while [ "$(grep -c -- '-> SUBNET UP' "$LOG" 2>/dev/null || true)" -lt "$n" ]; do
    if awk -v a="$start" -v b="$(now_s)" -v l="$limit" 'BEGIN { exit !(b - a > l) }'; then
      echo "OpenSM did not reach SUBNET UP #$n within ${limit}s (log: $LOG)" >&2
      return 1
    fi
    sleep 0.05
  done
}

stop_peers() {
  [ -n "${OSM_PID:-}" ] && kill "$OSM_PID" 2>/dev/null || true
  [ -n "${FEED_PID:-}" ] && kill "$FEED_PID" 2>/dev/null || true
  pkill -f "$IBSIM " 2>/dev/null || true
  OSM_PID= FEED_PID=
  sleep 0.5
}
trap stop_peers EXIT

opensm_row() {
  local k=$1 dir="$WORK/torus-$1"
  node "$HERE/torus-net.mjs" "$k" "$k" "$k" "$dir"
  LOG="$dir/opensm.log"
  rm -f "$LOG" "$dir/console"
  mkfifo "$dir/console"
  # ibsim's console reads the fifo (kept open by a writer that never ends).
  sleep infinity > "$dir/console" &
  FEED_PID=$!
  "$IBSIM" -s -N $((3 * k * k * k + 16)) -S $((k * k * k + 16)) -P $((10 * k * k * k + 64)) "$dir/torus.net" < "$dir/console" > "$dir/ibsim.log" 2>&1 &
  local ibsim_pid=$!
  sleep 2
  # force_log_flush: without it the log holds "SUBNET UP" in its buffer and the wait never sees it.
  printf 'force_log_flush TRUE\n' > "$dir/opensm.conf"
  local t0 t1 c0 c1
  t0=$(now_s)
  (cd "$dir" && LD_PRELOAD="$UMAD2SIM" exec "$OPENSM" -F "$dir/opensm.conf" -f "$LOG" -s 0 -R torus-2QoS -Q --torus_config "$dir/torus-2QoS.conf" > "$dir/opensm.out" 2>&1) &
  OSM_PID=$!
  sleep 0.2
  OSM_PID=$(pgrep -n -f "$OPENSM -F $dir/opensm.conf")
  subnet_up 1 900
  t1=$(now_s)
  printf 'opensm torus-2QoS %dx%dx%d: bring-up wall %s s, cpu %s s (ibsim cpu %s s)\n' "$k" "$k" "$k" "$(minus "$t1" "$t0")" "$(cpu_s "$OSM_PID")" "$(cpu_s "$ibsim_pid")"
  sleep 2
  local n=1
  # One cable cut (x+ of switch 1,2,3), then one switch dead (every port of 3,4,5): each is ibsim's unlink, which sends trap 128.
  for fault in 'cable cut:Unlink "S-1-2-3"[1]' 'switch dead:Unlink "S-3-4-5"'; do
    local what=${fault%%:*} command=${fault#*:}
    c0=$(cpu_s "$OSM_PID")
    local i0
    i0=$(cpu_s "$ibsim_pid")
    t0=$(now_s)
    echo "$command" > "$dir/console"
    n=$((n + 1))
    subnet_up "$n" 900
    t1=$(now_s)
    c1=$(cpu_s "$OSM_PID")
    printf 'opensm torus-2QoS %dx%dx%d: %s, fault → SUBNET UP wall %s s, cpu %s s (ibsim cpu %s s)\n' "$k" "$k" "$k" "$what" \
      "$(minus "$t1" "$t0")" "$(minus "$c1" "$c0")" "$(minus "$(cpu_s "$ibsim_pid")" "$i0")"
    sleep 2
  done
  stop_peers
}

weft_row() {
  local k=$1 bgl anton2
  if [ "$k" = 8 ]; then bgl=bgl/bgl-midplane-512 anton2=anton2/anton2-8x8x8-512; else bgl=bgl/bgl-4k anton2=anton2/anton2-16x16x16-4096; fi
  for name in "one cable cut, interrupt → generation pushed, $bgl" "one node dies, interrupt → generation pushed, $bgl" \
    "one torus channel dies, interrupt → generation pushed, $anton2" "one ASIC dies, interrupt → generation pushed, $anton2"; do
    (cd "$REPO" && node --max-inlined-bytecode-size-cumulative=5000 --max-inlined-bytecode-size=700 --min-inlining-frequency=0 \
      dist/test/bench/run-benchmarks.js "$name" 2>/dev/null | grep -A1 '^reaction through the service' | sed 's/^/weft /')
  done
}

for k in "${SIZES[@]}"; do
  opensm_row "$k"
  weft_row "$k"
done
