import { hashWindow, YarcRegisterFile } from './yarc-registers';
import { PORT_DOWNLINK, PORT_SIDELINK, PORT_UPLINK, LEGAL_MODULI, isLegalModulus } from './yarc-constants';
import {
  deterministicHash,
  nthSetBit,
  RouteDecision,
  ROUTE_ADAPTIVE,
  ROUTE_DOWNWARD_VIOLATION,
  ROUTE_ILLEGAL_MODULUS,
  ROUTE_NO_MATCH,
  ROUTE_PORT,
  routeYarc,
  selectHashBits,
} from './yarc-routing';

/** A rank-1 router over processors 96–127 (subtree 3), ports 0–31 down, 32–63 up. */
function rankOneRouter(): YarcRegisterFile {
  const regs = new YarcRegisterFile(1);
  for (let t = 0; t < 64; t++) {
    regs.rootLocation[t] = 0x0060;
    regs.rootMask[t] = 0x001f;
    regs.downShift[t] = 0;
    regs.downMask[t] = 0x1f;
    for (let l = 0; l < 32; l++) regs.setPortMap(0, t, l, 31 - l);
    regs.portDirection[t] = t < 32 ? PORT_DOWNLINK : PORT_UPLINK;
    regs.setTableEntry(
      0,
      t,
      0,
      0,
      0x7fff,
      Array.from({ length: 32 }, (_, i) => 32 + i),
    );
  }
  return regs;
}

describe('YARC routing registers (paper 000 §5)', () => {
  const out = new RouteDecision();

  it('root detect 0x0060/0x001F sends destinations 96–127 down by shift 0, mask 0x1F and the port map', () => {
    const regs = rankOneRouter();
    for (let dest = 96; dest < 128; dest++) {
      routeYarc(regs, 0, 40, dest, 0, false, false, out);
      expect(out).toMatchObject({ kind: ROUTE_PORT, goingDown: true, port: 31 - (dest - 96) });
    }
    routeYarc(regs, 0, 0, 95, 0, false, false, out);
    expect(out.goingDown).toBe(false);
    routeYarc(regs, 0, 0, 128, 0, false, false, out);
    expect(out.goingDown).toBe(false);
  });

  it('routes up through the entry that matches the whole network, over the uplinks only', () => {
    const regs = rankOneRouter();
    const used = new Set<number>();
    for (let dest = 0; dest < 96; dest++) {
      routeYarc(regs, 0, 7, dest, 0, false, false, out);
      expect(out.kind).toBe(ROUTE_PORT);
      used.add(out.port);
    }
    expect(Math.min(...used)).toBeGreaterThanOrEqual(32);
    expect(used.size).toBe(32);
  });

  it('prefers the highest-index matching entry (a fault entry overrides the master entry)', () => {
    const regs = rankOneRouter();
    // Entry 1: destinations 512–1023 may use only uplinks 40 and 41.
    regs.setTableEntry(0, 5, 1, 512, 0x1ff, [40, 41]);
    for (let dest = 512; dest < 1024; dest += 37) {
      routeYarc(regs, 0, 5, dest, 0, false, false, out);
      expect([40, 41]).toContain(out.port);
      expect(out.entry).toBe(1);
    }
    routeYarc(regs, 0, 5, 1024, 0, false, false, out);
    expect(out.entry).toBe(0);
  });

  it('spreads deterministic traffic evenly over the uplinks by hash', () => {
    const regs = rankOneRouter();
    const counts = new Array<number>(64).fill(0);
    for (let dest = 128; dest < 128 + 4096; dest++) {
      routeYarc(regs, 0, 3, dest, 0, false, false, out);
      counts[out.port]++;
    }
    const up = counts.slice(32);
    expect(Math.max(...up) / Math.min(...up)).toBeLessThan(1.2);
  });

  it('with h set, varies the path of one destination by the selected optional hash bits (§7.8.2)', () => {
    const regs = rankOneRouter();
    const ports = new Set<number>();
    for (let address = 0; address < 256; address++) {
      routeYarc(regs, 0, 3, 500, address, true, false, out);
      ports.add(out.port);
    }
    expect(ports.size).toBe(32);
    routeYarc(regs, 0, 3, 500, 0x7f00, true, false, out);
    const a = out.port;
    routeYarc(regs, 0, 3, 500, 0x0000, true, false, out);
    expect(out.port).toBe(a); // bits outside the window 0..7 do not matter
  });

  it('takes a modulo only over the port counts the hardware supports', () => {
    expect(LEGAL_MODULI.filter(isLegalModulus)).toHaveLength(16);
    expect([9, 11, 13, 15, 17, 31, 33].some(isLegalModulus)).toBe(false);
    const regs = rankOneRouter();
    regs.setTableEntry(
      0,
      0,
      2,
      0,
      0x7fff,
      Array.from({ length: 31 }, (_, i) => 32 + i),
    );
    routeYarc(regs, 0, 0, 200, 0, false, false, out);
    expect(out).toMatchObject({ kind: ROUTE_ILLEGAL_MODULUS, portCount: 31 });
    routeYarc(regs, 0, 0, 200, 0, false, true, out);
    expect(out.kind).toBe(ROUTE_ADAPTIVE); // adaptive packets need no modulo
  });

  it('refuses to send a packet that arrived from an uplink or sidelink back up (§7.7)', () => {
    const regs = rankOneRouter();
    routeYarc(regs, 0, 40, 5, 0, false, false, out);
    expect(out.kind).toBe(ROUTE_DOWNWARD_VIOLATION);
    regs.portDirection[40] = PORT_SIDELINK;
    routeYarc(regs, 0, 40, 5, 0, false, false, out);
    expect(out.kind).toBe(ROUTE_DOWNWARD_VIOLATION);
  });

  it('reports a destination no entry covers', () => {
    const regs = rankOneRouter();
    regs.clearTableEntry(0, 7, 0);
    routeYarc(regs, 0, 7, 5, 0, false, false, out);
    expect(out.kind).toBe(ROUTE_NO_MATCH);
  });

  it('selects 8 of the 15 hash bits, in different windows per rank', () => {
    expect(selectHashBits(0b111_1111_1111_1111, hashWindow(0))).toBe(0xff);
    expect(selectHashBits(0b000_0000_0010_0000, hashWindow(5))).toBe(1);
    expect(hashWindow(10)).toBe(0b111_1100_0000_0111);
    expect(nthSetBit(0b1010, 0b1, 2)).toBe(32);
    expect(deterministicHash(1, 2, 0, false, 0)).toBe(3);
  });
});
