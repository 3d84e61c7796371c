import { join } from 'node:path';
import { anton2ChannelName, anton2ChannelPort } from '../chips/anton2-asic';
import { loadAnton2Floorplan } from './anton2-floorplan';
import { channelToChannel, meshRoute } from './on-chip-routes';

const plan = loadAnton2Floorplan(join(__dirname, '../../../../fixtures/anton2/anton2-floorplan.json'));
const port = (name: string) => anton2ChannelPort('XYZ'.indexOf(name[0]), name[2] === '-', Number(name[1]));

describe('routes across an Anton 2 ASIC (paper 004 §2.4)', () => {
  it("through routes: Y and Z cross one router, X takes the skip channel (the paper's two examples)", () => {
    expect(channelToChannel(plan, port('Y0-'), port('Y0+'))).toEqual({ routers: [[0, 2]], steps: [], through: true });
    expect(channelToChannel(plan, port('X1-'), port('X1+'))).toEqual({
      routers: [
        [3, 0],
        [0, 0],
      ],
      steps: ['skip'],
      through: true,
    });
  });

  it('local routes go V−, then U+, then U−, then V+, and any other order can be set', () => {
    expect(meshRoute([2, 3], [0, 0]).steps).toEqual(['V-', 'V-', 'V-', 'U-', 'U-']);
    expect(meshRoute([0, 0], [3, 3]).steps).toEqual(['U+', 'U+', 'U+', 'V+', 'V+', 'V+']);
    expect(meshRoute([0, 0], [3, 3], ['V+', 'U+', 'U-', 'V-']).steps).toEqual(['V+', 'V+', 'V+', 'U+', 'U+', 'U+']);
    expect(() => meshRoute([0, 0], [3, 3], ['V-', 'U-', 'U+', 'V-'])).toThrow('cannot reach R3,3 from R0,0');
  });

  it("§2.4's worst-case permutation under V−, U+, U−, V+: the busiest mesh channel carries two torus channels' worth", () => {
    // Eq. 1, each torus channel's traffic turning to another (X+ → Z− …), in both slices.
    const turns = [
      ['X+', 'Z-'],
      ['X-', 'X+'],
      ['Y+', 'Y-'],
      ['Y-', 'Z+'],
      ['Z+', 'X-'],
      ['Z-', 'Y+'],
    ];
    const load = new Map<string, number>();
    for (const slice of [0, 1])
      for (const [a, b] of turns) {
        const route = channelToChannel(plan, port(`${a[0]}${slice}${a[1]}`), port(`${b[0]}${slice}${b[1]}`));
        route.steps.forEach((step, i) => {
          const key = `${route.routers[i].join(',')}>${route.routers[i + 1].join(',')}`;
          if (step !== 'skip') load.set(key, (load.get(key) ?? 0) + 1);
        });
      }
    expect(Math.max(...load.values())).toBe(2);
  });

  it('and no permutation of the six channels of a slice loads a mesh channel with more (the floorplan was chosen so)', () => {
    const names = ['X+', 'X-', 'Y+', 'Y-', 'Z+', 'Z-'];
    const permutations = (rest: string[]): string[][] =>
      rest.length === 0 ? [[]] : rest.flatMap((x, i) => permutations([...rest.slice(0, i), ...rest.slice(i + 1)]).map((p) => [x, ...p]));
    let worst = 0;
    for (const perm of permutations(names)) {
      if (perm.some((b, i) => b === names[i])) continue; // no packet leaves by the channel it came in on
      const load = new Map<string, number>();
      for (const slice of [0, 1])
        perm.forEach((b, i) => {
          const route = channelToChannel(plan, port(`${names[i][0]}${slice}${names[i][1]}`), port(`${b[0]}${slice}${b[1]}`));
          route.steps.forEach((step, k) => {
            const key = `${route.routers[k].join(',')}>${route.routers[k + 1].join(',')}`;
            if (step !== 'skip') load.set(key, (load.get(key) ?? 0) + 1);
          });
        });
      worst = Math.max(worst, ...load.values());
    }
    expect(worst).toBe(2);
    expect(anton2ChannelName(port('Z1-'))).toBe('Z1-');
  });
});
