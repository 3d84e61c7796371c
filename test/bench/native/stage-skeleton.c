/*
 * The stage skeleton (test/bench/stage-skeleton.ts) in C, compiled with the machine's gcc: what the
 * same construction runs at as compiled code, for the team's decision on a compiled emulator core.
 * A measuring instrument, not part of weft: it reads a workload the benchmark writes (the fabric,
 * its routing registers and the arrivals the TypeScript skeleton is given) and does, step for
 * step, what stage-skeleton.ts does — the same queues, free lists, event order and round robins —
 * so that both move the same phit-hops and deliver the same packets; the benchmark checks that
 * they do before it reports a figure. Routing is routeYarc (yarc-routing.ts, paper 000 §5.1, §7.7,
 * §7.8.2) on the registers as written, not a table of its answers.
 *
 * Usage: stage-skeleton WORKLOAD. Runs the workload's warm-up run, then its measured run (timed),
 * then drains; prints one line of JSON: the measured run's milliseconds and phit-hops, and the
 * books after the drain.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NEVER INFINITY
enum { ROW = 0, COLUMN = 1, OUTPUT = 2, ARRIVE = 3, CREDIT = 4 };
#define KIND_BITS 3
#define KIND_MASK 7
#define SLOT_BITS 10
#define SLOTS (1 << SLOT_BITS)
#define SLOT_MASK (SLOTS - 1)
#define PACKETS (1 << 16)
#define EVENTS (1 << 20)
#define TILES_PER_ROUTER 64
#define TABLE_ENTRIES 8
#define PORT_DOWNLINK 0
#define PORT_UPLINK 1
#define PORT_SIDELINK 2

/* The workload's header, in the order written (native-skeleton.ts). */
static int32_t T, P, PARTS, CYCLES, WINDOW, PACKET_PHITS;
static int32_t INPUT_STAGES, COLUMN_DELAY, OUTPUT_STAGES, ROW_DELAY, ROW_VC_LIMIT, COLUMN_VC_LIMIT;
static int32_t INPUT_VC_PHITS, ENDPOINT_RECEIVE, LOCATION_MASK, DRAIN;

static int32_t *peer, *latency, *globalTile, *tileGlobal;
static double *rate;
static int32_t *portDirection, *rootLocation, *rootMask, *downShift, *downMask, *portMap, *hashSelect;
static uint32_t *table;
/* Arrivals of each run and part, in the order beforeCycle makes them: (cycle from the run's start, port, destination). */
static int32_t *arrivals[2];
static int32_t *arrivalsOfPart[2];
static int32_t arrivalCount[2];

static double phitHops;
static int64_t injected, delivered;

static int32_t destination[PACKETS], length[PACKETS], route_[PACKETS], next[PACKETS];
static double ready[PACKETS];
static int32_t freePacket;

static int32_t *head, *tail;
static int32_t ibBase, rbBase, cbBase, srcBase;
static int32_t *rowRoom, *columnRoom, *credits;
static uint8_t *rowWaiting, *columnWaiting, *creditWaiting;
static double *rowBusy, *channelBusy, *linkBusy;
static int32_t *want, *columnsHolding;
static uint8_t *channelRR, *outputRR, *rowRR;
static double *pending[3];

static int32_t eventA[EVENTS], eventB[EVENTS], eventNext[EVENTS];
static int32_t freeEvent;
static int32_t *slotHead;
static int32_t part;
static double now;

static void fail(const char *what) {
  fprintf(stderr, "stage-skeleton: %s\n", what);
  exit(2);
}

static FILE *input;
static void *readArray(size_t count, size_t size) {
  void *a = malloc(count * size + 1);
  if (!a) fail("out of memory");
  if (fread(a, size, count, input) != count) fail("the workload file ends early");
  return a;
}
static int32_t readInt(void) {
  int32_t v;
  if (fread(&v, 4, 1, input) != 1) fail("the workload file ends early");
  return v;
}
static int32_t *filled(size_t count, int32_t v) {
  int32_t *a = malloc(count * 4 + 1);
  if (!a) fail("out of memory");
  for (size_t k = 0; k < count; k++) a[k] = v;
  return a;
}
static double *filledD(size_t count, double v) {
  double *a = malloc(count * 8 + 1);
  if (!a) fail("out of memory");
  for (size_t k = 0; k < count; k++) a[k] = v;
  return a;
}

/* ---- routeYarc (yarc-routing.ts), the deterministic path the skeleton takes ---- */

static const uint8_t LEGAL[65] = {[1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [10] = 1, [12] = 1, [14] = 1, [16] = 1, [20] = 1, [24] = 1, [28] = 1, [32] = 1};

/* selectHashBits for every 15-bit value, per selection in use, as yarc-routing.ts caches them. */
#define SELECTIONS 64
static int32_t selectionValue[SELECTIONS];
static uint8_t *selectionTable[SELECTIONS];
static int32_t selections, lastSelection = -1;

static int selectHashBits(int hashBits, int select) {
  int out = 0, k = 0;
  for (int b = 0; b < 15 && k < 8; b++)
    if (select & (1 << b)) {
      if (hashBits & (1 << b)) out |= 1 << k;
      k++;
    }
  return out;
}

static int selectedBits(int hashBits, int select) {
  if (lastSelection >= 0 && selectionValue[lastSelection] == select) return selectionTable[lastSelection][hashBits & 0x7fff];
  int s = 0;
  while (s < selections && selectionValue[s] != select) s++;
  if (s == selections) {
    if (selections == SELECTIONS) return selectHashBits(hashBits, select);
    selectionTable[s] = malloc(1 << 15);
    if (!selectionTable[s]) fail("out of memory");
    for (int v = 0; v < 1 << 15; v++) selectionTable[s][v] = (uint8_t)selectHashBits(v, select);
    selectionValue[s] = select;
    selections++;
  }
  lastSelection = s;
  return selectionTable[s][hashBits & 0x7fff];
}

static int nthSetBit(uint32_t lo, uint32_t hi, int n) {
  int loCount = __builtin_popcount(lo);
  uint32_t word = lo;
  int base = 0;
  if (n >= loCount) {
    n -= loCount;
    word = hi;
    base = 32;
  }
  for (; n > 0 && word != 0; n--) word &= word - 1;
  return word == 0 ? -1 : base + __builtin_ctz(word);
}

/* The output port of a packet to `dest` at input `inPort` of router `r` (hashed, h set, not adaptive); -1: none. */
static int routePacket(int r, int inPort, int destinationId) {
  int tile = r * TILES_PER_ROUTER + inPort;
  uint32_t dest = (uint32_t)destinationId & (uint32_t)LOCATION_MASK;
  int direction = portDirection[tile];
  if (((dest ^ (uint32_t)rootLocation[tile]) & ~(uint32_t)rootMask[tile] & (uint32_t)LOCATION_MASK) == 0) {
    int logical = (int)((dest >> downShift[tile]) & (uint32_t)downMask[tile]);
    int physical = portMap[tile * TILES_PER_ROUTER + (logical & (TILES_PER_ROUTER - 1))];
    return portDirection[r * TILES_PER_ROUTER + physical] == PORT_DOWNLINK ? physical : -1;
  }
  if (direction == PORT_UPLINK || direction == PORT_SIDELINK) return -1;
  int base = tile * TABLE_ENTRIES;
  for (int e = TABLE_ENTRIES - 1; e >= 0; e--) {
    int at = (base + e) << 2;
    if (table[at | 3] == 0) continue;
    uint32_t match = table[at];
    if (((dest ^ match) & ~(match >> 16) & (uint32_t)LOCATION_MASK) != 0) continue;
    uint32_t lo = table[at | 1], hi = table[at | 2];
    int count = __builtin_popcount(lo) + __builtin_popcount(hi);
    if (count == 0 || count > 64 || !LEGAL[count]) return -1;
    uint32_t x = (uint32_t)inPort ^ dest ^ (dest >> 5) ^ (dest >> 10);
    x ^= (uint32_t)selectedBits((int)(dest & 0x7fff), hashSelect[tile]);
    return nthSetBit(lo, hi, (int)((x & 0xffff) % (uint32_t)count));
  }
  return -1;
}

/* ---- the skeleton, as stage-skeleton.ts ---- */

static inline uint32_t rotate16(uint32_t mask, int by) { return ((mask >> by) | (mask << (16 - by))) & 0xffff; }
static inline int lowestBit(uint32_t mask) { return __builtin_ctz(mask); }

static inline void push(int q, int p) {
  next[p] = -1;
  int last = tail[q];
  if (last < 0) head[q] = p;
  else next[last] = p;
  tail[q] = p;
}

static inline int pop(int q) {
  int p = head[q];
  int following = next[p];
  head[q] = following;
  if (following < 0) tail[q] = -1;
  return p;
}

static inline void schedule(double at, int a, int b) {
  if (at - now >= SLOTS) fail("an event beyond the wheel");
  int e = freeEvent;
  if (e < 0) fail("out of events");
  freeEvent = eventNext[e];
  eventA[e] = a;
  eventB[e] = b;
  int slot = (part << SLOT_BITS) | (int)((int64_t)at & SLOT_MASK);
  eventNext[e] = slotHead[slot];
  slotHead[slot] = e;
}

static inline void wake(int kind, int stage, double at) {
  if (at <= now) at = now + 1;
  double *p = pending[kind];
  double current = p[stage];
  if (current >= now && current <= at) return;
  p[stage] = at;
  schedule(at, (stage << KIND_BITS) | kind, 0);
}

static void inject(int g, int dest, int len) {
  int p = freePacket;
  if (p < 0) fail("out of packets");
  freePacket = next[p];
  destination[p] = dest;
  length[p] = len;
  route_[p] = -1;
  int q = srcBase + 2 * g;
  int wasEmpty = head[q] < 0;
  push(q, p);
  injected++;
  if (wasEmpty) wake(OUTPUT, g, now);
}

static void stepRow(int tile) {
  if (now < rowBusy[tile]) {
    wake(ROW, tile, rowBusy[tile]);
    return;
  }
  int r = tile / TILES_PER_ROUTER;
  int i = tile - r * TILES_PER_ROUTER;
  double wakeAt = NEVER;
  int first = rowRR[tile];
  for (int k = 0; k < 2; k++) {
    int v = (first + k) & 1;
    int q = ibBase + 2 * tile + v;
    int p = head[q];
    if (p < 0) continue;
    if (ready[p] > now) {
      if (ready[p] < wakeAt) wakeAt = ready[p];
      continue;
    }
    int out = route_[p];
    if (out < 0) {
      out = routePacket(r, i, destination[p]);
      if (out < 0) fail("no route");
      route_[p] = out;
    }
    int len = length[p];
    int rb = ((tile * 8 + (out & 7)) << 1) | v;
    if (rowRoom[rb] < len) {
      rowWaiting[rb] = 1;
      continue;
    }
    pop(q);
    rowRoom[rb] -= len;
    ready[p] = now + ROW_DELAY;
    int wasEmpty = head[rbBase + rb] < 0;
    push(rbBase + rb, p);
    if (wasEmpty) {
      int channel = (r * TILES_PER_ROUTER + out) * 8 + (i >> 3);
      want[channel] |= 1 << (((i & 7) << 1) | v);
      wake(COLUMN, channel, now + ROW_DELAY);
    }
    rowBusy[tile] = now + len;
    int g = tileGlobal[tile];
    schedule(now + len + latency[g], (((peer[g] << 1) | v) << KIND_BITS) | CREDIT, len);
    rowRR[tile] = (v + 1) & 1;
    if (head[ibBase + 2 * tile] >= 0 || head[ibBase + 2 * tile + 1] >= 0) wakeAt = now + len;
    break;
  }
  if (wakeAt != NEVER) wake(ROW, tile, wakeAt);
}

static void stepColumn(int channel) {
  if (now < channelBusy[channel]) {
    wake(COLUMN, channel, channelBusy[channel]);
    return;
  }
  uint32_t w = (uint32_t)want[channel];
  if (w == 0) return;
  int outTile = channel >> 3;
  int row = channel & 7;
  int base = (outTile / TILES_PER_ROUTER) * TILES_PER_ROUTER;
  int column = (outTile - base) & 7;
  double wakeAt = NEVER;
  int start = channelRR[channel];
  for (uint32_t bits = rotate16(w, start); bits != 0; bits &= bits - 1) {
    int c = (start + lowestBit(bits)) & 15;
    int in = row * 8 + (c >> 1);
    int v = c & 1;
    int cb = (channel << 1) | v;
    int rb = (((base + in) * 8 + column) << 1) | v;
    int p = head[rbBase + rb];
    if (ready[p] > now) {
      if (ready[p] < wakeAt) wakeAt = ready[p];
      continue;
    }
    int len = length[p];
    if (columnRoom[cb] < len) {
      columnWaiting[cb] = 1;
      continue;
    }
    pop(rbBase + rb);
    want[channel] &= ~(1 << c);
    int following = head[rbBase + rb];
    if (following >= 0) {
      int other = (base + route_[following]) * 8 + row;
      want[other] |= 1 << c;
      wake(COLUMN, other, now + len);
    }
    rowRoom[rb] += len;
    if (rowWaiting[rb]) {
      rowWaiting[rb] = 0;
      wake(ROW, base + in, now + len);
    }
    columnRoom[cb] -= len;
    ready[p] = now + COLUMN_DELAY;
    push(cbBase + cb, p);
    columnsHolding[outTile] |= 1 << ((row << 1) | v);
    channelBusy[channel] = now + len;
    channelRR[channel] = (c + 1) & 15;
    wake(OUTPUT, tileGlobal[outTile], now + COLUMN_DELAY);
    if (want[channel] != 0) wakeAt = now + len;
    break;
  }
  if (wakeAt != NEVER) wake(COLUMN, channel, wakeAt);
}

static void send(int g, int p, int v) {
  int len = length[p];
  credits[2 * g + v] -= len;
  double cycles = ceil(len / rate[g]);
  linkBusy[g] = now + cycles;
  phitHops += len;
  int far = peer[g];
  double at = now + OUTPUT_STAGES + latency[g] + cycles - 1;
  int farTile = globalTile[far];
  if (farTile >= 0) schedule(at, (farTile << KIND_BITS) | ARRIVE, p);
  else {
    delivered++;
    next[p] = freePacket;
    freePacket = p;
    schedule(at + latency[g], (((g << 1) | v) << KIND_BITS) | CREDIT, len);
  }
}

static void stepOutput(int g) {
  if (now < linkBusy[g]) {
    wake(OUTPUT, g, linkBusy[g]);
    return;
  }
  int tile = globalTile[g];
  if (tile < 0) {
    int q = srcBase + 2 * g;
    int p = head[q];
    if (p < 0) return;
    if (credits[2 * g] < length[p]) {
      creditWaiting[2 * g] = 1;
      return;
    }
    pop(q);
    send(g, p, 0);
    if (head[q] >= 0) wake(OUTPUT, g, linkBusy[g]);
    return;
  }
  uint32_t holding = (uint32_t)columnsHolding[tile];
  if (holding == 0) return;
  double wakeAt = NEVER;
  int start = outputRR[tile];
  for (uint32_t bits = rotate16(holding, start); bits != 0; bits &= bits - 1) {
    int c = (start + lowestBit(bits)) & 15;
    int v = c & 1;
    int cb = ((tile * 8 + (c >> 1)) << 1) | v;
    int p = head[cbBase + cb];
    if (ready[p] > now) {
      if (ready[p] < wakeAt) wakeAt = ready[p];
      continue;
    }
    int len = length[p];
    if (credits[2 * g + v] < len) {
      creditWaiting[2 * g + v] = 1;
      continue;
    }
    pop(cbBase + cb);
    if (head[cbBase + cb] < 0) columnsHolding[tile] &= ~(1 << c);
    columnRoom[cb] += len;
    if (columnWaiting[cb]) {
      columnWaiting[cb] = 0;
      wake(COLUMN, cb >> 1, now);
    }
    outputRR[tile] = (c + 1) & 15;
    send(g, p, v);
    if (columnsHolding[tile] != 0) wakeAt = linkBusy[g];
    break;
  }
  if (wakeAt != NEVER) wake(OUTPUT, g, wakeAt);
}

static void fire(int a, int b) {
  int kind = a & KIND_MASK;
  int s = a >> KIND_BITS;
  if (kind <= OUTPUT) {
    if (pending[kind][s] != now) return;
    pending[kind][s] = -1;
    if (kind == ROW) stepRow(s);
    else if (kind == COLUMN) stepColumn(s);
    else stepOutput(s);
  } else if (kind == ARRIVE) {
    int q = ibBase + 2 * s;
    ready[b] = now + INPUT_STAGES;
    route_[b] = -1;
    int wasEmpty = head[q] < 0;
    push(q, b);
    if (wasEmpty) wake(ROW, s, ready[b]);
  } else {
    credits[s] += b;
    if (creditWaiting[s]) {
      creditWaiting[s] = 0;
      wake(OUTPUT, s >> 1, now);
    }
  }
}

/* runWindowed, with the run's arrivals (run < 0: none) made before each part's cycle as beforeCycle does. */
static void runWindowed(double start, int cycles, int run) {
  double end = start + cycles;
  int32_t cursor[64];
  if (PARTS > 64) fail("more than 64 parts");
  for (int k = 0; k < PARTS; k++) cursor[k] = run < 0 ? 0 : arrivalsOfPart[run][k];
  for (double from = start; from < end; from += WINDOW) {
    double until = from + WINDOW < end ? from + WINDOW : end;
    for (part = 0; part < PARTS; part++) {
      int32_t c = cursor[part];
      int32_t last = run < 0 ? 0 : arrivalsOfPart[run][part + 1];
      const int32_t *list = run < 0 ? NULL : arrivals[run];
      for (double t = from; t < until; t++) {
        now = t;
        int rel = (int)(t - start);
        while (c < last && list[3 * c] == rel) {
          inject(list[3 * c + 1], list[3 * c + 2], PACKET_PHITS);
          c++;
        }
        int slot = (part << SLOT_BITS) | (int)((int64_t)t & SLOT_MASK);
        int e = slotHead[slot];
        slotHead[slot] = -1;
        while (e >= 0) {
          int following = eventNext[e];
          fire(eventA[e], eventB[e]);
          eventNext[e] = freeEvent;
          freeEvent = e;
          e = following;
        }
      }
      cursor[part] = c;
    }
  }
  now = end;
}

static double milliseconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 2) fail("usage: stage-skeleton WORKLOAD");
  input = fopen(argv[1], "rb");
  if (!input) fail("cannot open the workload file");
  if (readInt() != 0x314b5357) fail("not a stage-skeleton workload (magic 'WSK1')");
  T = readInt(), P = readInt(), PARTS = readInt(), CYCLES = readInt(), WINDOW = readInt(), PACKET_PHITS = readInt();
  INPUT_STAGES = readInt(), COLUMN_DELAY = readInt(), OUTPUT_STAGES = readInt(), ROW_DELAY = readInt();
  ROW_VC_LIMIT = readInt(), COLUMN_VC_LIMIT = readInt(), INPUT_VC_PHITS = readInt(), ENDPOINT_RECEIVE = readInt();
  LOCATION_MASK = readInt(), DRAIN = readInt();
  peer = readArray(P, 4), latency = readArray(P, 4), globalTile = readArray(P, 4), rate = readArray(P, 8);
  tileGlobal = readArray(T, 4);
  portDirection = readArray(T, 4), rootLocation = readArray(T, 4), rootMask = readArray(T, 4), downShift = readArray(T, 4);
  downMask = readArray(T, 4), hashSelect = readArray(T, 4), portMap = readArray((size_t)T * TILES_PER_ROUTER, 4);
  table = readArray((size_t)T * TABLE_ENTRIES * 4, 4);
  for (int run = 0; run < 2; run++) {
    arrivalsOfPart[run] = readArray(PARTS + 1, 4);
    arrivalCount[run] = arrivalsOfPart[run][PARTS];
    arrivals[run] = readArray((size_t)arrivalCount[run] * 3, 4);
  }
  fclose(input);

  rbBase = 2 * T;
  cbBase = rbBase + 16 * T;
  srcBase = cbBase + 16 * T;
  head = filled(srcBase + 2 * P, -1);
  tail = filled(srcBase + 2 * P, -1);
  rowRoom = filled(16 * T, ROW_VC_LIMIT);
  columnRoom = filled(16 * T, COLUMN_VC_LIMIT);
  rowWaiting = calloc(16 * T, 1), columnWaiting = calloc(16 * T, 1), creditWaiting = calloc(2 * P, 1);
  credits = filled(2 * P, 0);
  for (int g = 0; g < P; g++) {
    if (peer[g] < 0) continue;
    int room = globalTile[peer[g]] >= 0 ? INPUT_VC_PHITS : ENDPOINT_RECEIVE;
    credits[2 * g] = room;
    credits[2 * g + 1] = room;
  }
  rowBusy = filledD(T, 0), channelBusy = filledD(8 * T, 0), linkBusy = filledD(P, 0);
  want = filled(8 * T, 0), columnsHolding = filled(T, 0);
  channelRR = calloc(8 * T, 1), outputRR = calloc(T, 1), rowRR = calloc(T, 1);
  pending[ROW] = filledD(T, -1), pending[COLUMN] = filledD(8 * T, -1), pending[OUTPUT] = filledD(P, -1);
  for (int p = 0; p < PACKETS; p++) next[p] = p + 1;
  next[PACKETS - 1] = -1;
  for (int e = 0; e < EVENTS; e++) eventNext[e] = e + 1;
  eventNext[EVENTS - 1] = -1;
  slotHead = filled((size_t)PARTS << SLOT_BITS, -1);

  runWindowed(0, CYCLES, 0);
  double before = phitHops;
  double t0 = milliseconds();
  runWindowed(CYCLES, CYCLES, 1);
  double ms = milliseconds() - t0;
  double measured = phitHops - before;
  int64_t inFlight = injected - delivered;
  runWindowed(2.0 * CYCLES, DRAIN, -1);
  printf("{\"ms\":%.3f,\"phitHops\":%.0f,\"inFlight\":%lld,\"injected\":%lld,\"delivered\":%lld,\"totalPhitHops\":%.0f}\n", ms, measured,
         (long long)inFlight, (long long)injected, (long long)delivered, phitHops);
  return 0;
}
