import { generateBglDesign } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { digestBglDeliveries, uniformTraffic, UniformTraffic } from './bgl-programs';
import { runBglInThreads } from './bgl-threads';
import { BglTorusSim } from './bgl-torus-sim';

const design = generateBglDesign({ shape: [8, 8, 8], midplaneLinkCycles: 3, cableLinkCycles: 10 });
const traffic: UniformTraffic = { seed: 9, load: 0.6, sizes: [1, 2, 4, 8], routing: 'dynamic', sendUntil: 3000 };

function build(): BglTorusSim {
  const sim = new BglTorusSim(new EmulatedFabric(design), 3);
  sim.programMinimalRouting();
  return sim;
}

describe('the BlueGene/L torus in blocks (paper 002 §3: blocks of the torus in windows no longer than the shortest link between them)', () => {
  it('cut into blocks run a window at a time, the torus delivers the same packets at the same cycles as cycle by cycle', () => {
    const whole = build();
    const wholeDigest = digestBglDeliveries(whole);
    const send = uniformTraffic(whole, traffic);
    whole.run(3000, (cycle) => send(0, cycle));
    whole.drain(100000);

    const cut = build();
    const window = cut.setBlocks(4);
    // Between midplane boards the shortest link is 3 cycles: a token-ack then takes 3 + 8.
    expect(window).toBe(11);
    const cutDigest = digestBglDeliveries(cut);
    cut.runWindowed(3000 + 20000, window, uniformTraffic(cut, traffic));

    expect(wholeDigest.delivered).toBeGreaterThan(5000);
    expect({ delivered: cutDigest.delivered, latency: cutDigest.latencyCycles, hash: cutDigest.hash, inFlight: cut.inFlight }).toEqual({
      delivered: wholeDigest.delivered,
      latency: wholeDigest.latencyCycles,
      hash: wholeDigest.hash,
      inFlight: 0,
    });
  });

  it('on two threads, the torus delivers the same packets at the same cycles as on one', () => {
    const whole = build();
    const wholeDigest = digestBglDeliveries(whole);
    const send = uniformTraffic(whole, traffic);
    whole.run(3000, (cycle) => send(0, cycle));
    whole.drain(100000);
    const cycles = whole.cycle;

    const run = { design, seed: 3, settings: {}, traffic, cycles, blocks: 4 };
    const parallel = runBglInThreads(run, 2);
    expect({
      delivered: parallel.delivered,
      latency: parallel.latencyCycles,
      hash: parallel.hash,
      injected: parallel.injected,
      discarded: parallel.discarded,
    }).toEqual({
      delivered: wholeDigest.delivered,
      latency: wholeDigest.latencyCycles,
      hash: wholeDigest.hash,
      injected: whole.injected,
      discarded: {},
    });
    expect(parallel.window).toBe(11);
  });

  it('a window longer than the lookahead is refused', () => {
    const cut = build();
    const window = cut.setBlocks(2);
    expect(() => cut.runWindowed(100, window + 1, () => undefined)).toThrow(
      `a window is 1 to ${window} cycles (the lookahead between blocks), got ${window + 1}`,
    );
  });
});
