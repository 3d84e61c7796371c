import { meaningOfChange } from './describe';

// A table entry's value: [valid, location, mask, ports 0–31, ports 32–63].
const entry = (location: number, mask: number, ports: number[]) => {
  const value = [1, location, mask, 0, 0];
  for (const p of ports) value[p < 32 ? 3 : 4] = (value[p < 32 ? 3 : 4] | (1 << (p & 31))) >>> 0;
  return value;
};

describe('a generation diff in the chip’s terms', () => {
  it('names only the ports whose direction changed, grouped by what they went from and to', () => {
    const before = [...Array(32).fill(0), ...Array(32).fill(2)];
    const after = [...before];
    after[40] = 3;
    after[45] = 3;
    after[33] = 3;
    after[1] = 1;
    expect(meaningOfChange('portDirections', before, after)).toBe('port 1: downlink → uplink; ports 33, 40, 45: sidelink → unused');
  });

  it('gives a table entry over the same processors as its ports before and after, and any other as a whole', () => {
    expect(meaningOfChange('routingTable', entry(128, 31, [40, 43, 45, 46]), entry(128, 31, [43, 45, 46]))).toBe(
      'processors 128–159: ports 40, 43, 45–46 → 43, 45–46',
    );
    expect(meaningOfChange('routingTable', entry(128, 31, [40]), entry(128, 31, []))).toBe('processors 128–159: ports 40 → none');
    expect(meaningOfChange('routingTable', [0, 0, 0, 0, 0], entry(96, 0, [63]))).toBe('empty → processors 96 via port 63');
    expect(meaningOfChange('routingTable', entry(0, 31, [1, 2]), [0, 0, 0, 0, 0])).toBe('processors 0–31 via ports 1–2 → empty');
  });

  it('decodes the other registers: subtrees as processors, timers in ns, hash bits as ranges', () => {
    expect(meaningOfChange('rootDetect', [0x60, 0x1f], [0x40, 0x3f])).toBe('processors 96–127 below → processors 64–127 below');
    expect(meaningOfChange('downRoute', [0, 31], [5, 15])).toBe('logical port = (destination >> 0) & 31 → logical port = (destination >> 5) & 15');
    expect(meaningOfChange('portMap', [6], [7])).toBe('physical port 6 → physical port 7');
    expect(meaningOfChange('hashSelect', [0xff], [0x7f00])).toBe('hash bits 0–7 → hash bits 8–14');
    expect(meaningOfChange('forwardProgressTimer', [80000], [20000])).toBe('100000 ns → 25000 ns');
    expect(meaningOfChange('octantRate', [6.25], [3.125])).toBe('6.25 Gb/s → 3.125 Gb/s');
    expect(meaningOfChange('laneRetryThreshold', [16], [8])).toBe('16 → 8');
  });

  it('says when a register is written only in one of the two generations', () => {
    expect(meaningOfChange('portMap', null, [5])).toBe('set: physical port 5');
    expect(meaningOfChange('maxPacketLength', [19], null)).toBe('no longer written (was 19 phits)');
    expect(meaningOfChange('portDirections', null, [...Array(32).fill(0), ...Array(31).fill(2), 3])).toBe('set: downlink 0–31, sidelink 32–62, unused 63');
  });
});
