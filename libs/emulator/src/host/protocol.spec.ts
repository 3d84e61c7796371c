import type { MaintenanceResult, RegisterValue } from '@weft/fabric-model';
import { packResults, packRoutes, transferables, unpackResults, unpackRoutes } from './protocol';

/** A read-many crosses between threads packed in typed arrays; nothing may change on the way. */
describe('read-many between threads', () => {
  it('gives back the routes it packed, empty and long ones included', () => {
    const routes = [[0], [], [3, 17, 63, 2], [1, 40, 41, 42, 43, 44, 45]];
    const packed = packRoutes(routes);
    expect(unpackRoutes(packed)).toEqual(routes);
    expect(transferables({ type: 'read-many', id: 1, fabricId: 1, routes: packed, register: 'identity', concurrency: 4 })).toEqual([
      packed.ports.buffer,
      packed.offsets.buffer,
    ]);
  });

  it('gives back every answer and every failure with its reason and detail, in order', () => {
    const results: MaintenanceResult<RegisterValue>[] = [
      { ok: true, value: [0xfedcba98, 1, 64, 37], latencyNs: 812.5 },
      { ok: false, reason: 'timeout', detail: 'no answer within 100 µs', latencyNs: 100_000 },
      { ok: true, value: [], latencyNs: 700 },
      { ok: false, reason: 'no-such-register', detail: 'no register "bogus"', latencyNs: 650 },
      { ok: false, reason: 'rejected', detail: 'route leaves by port 70', latencyNs: 0 },
      { ok: true, value: Array.from({ length: 64 }, (_, i) => i % 4), latencyNs: 1_250 },
    ];
    const packed = packResults(results);
    expect(unpackResults(packed)).toEqual(results);
    expect(transferables({ type: 'results', id: 1, results: packed })).toHaveLength(4);
  });
});
