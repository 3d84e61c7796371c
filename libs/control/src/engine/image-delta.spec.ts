import { designAsDiscovered } from '../discovery/known-fabric';
import type { ConfigurationImage } from '../blackwidow/blackwidow-engine';
import { faultSet } from '../blackwidow/configure-blackwidow';
import { BlackWidowConfigurator } from '../blackwidow/incremental-configuration';
import { routerCables, smallDesign } from '../testing/small-fabrics';
import { diffImages } from '../blackwidow/push-image';
import { applyImageDelta, chipsChanged, ImageDelta, imageDelta } from './image-delta';

/** What the store gives back of an image: its JSON, parsed. */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('image deltas', () => {
  it('rebuild every generation of a fabric through cuts, a router death, its revival and repairs from the whole first image, and name only the chips that changed', () => {
    const design = smallDesign('R2', 512, 7);
    const known = designAsDiscovered(design, 'p0');
    const cables = routerCables(design);
    const r2 = design.chips.find((c) => c.kind === 'router' && c.rank === 2)!.name;
    const configurator = new BlackWidowConfigurator(known);
    const steps: { kind: string; chip: string; port: number | null }[][] = [
      [],
      [{ kind: 'link', chip: cables[3].a.chip, port: cables[3].a.port }],
      [
        { kind: 'link', chip: cables[3].a.chip, port: cables[3].a.port },
        { kind: 'router', chip: r2, port: null },
      ],
      [{ kind: 'link', chip: cables[3].a.chip, port: cables[3].a.port }],
      [],
    ];
    let parent: ConfigurationImage | null = null;
    let rebuilt: ConfigurationImage | null = null;
    let removedSeen = 0;
    let reorderedOrAdded = 0;
    for (const faults of steps) {
      const configured = configurator.configure(faultSet(faults));
      const image = configured.image;
      if (parent && rebuilt) {
        const { delta, chips } = imageDelta(parent, image);
        expect(chips).toBeLessThan(image.routers.length);
        // Only chips whose registers or route changed are named; the patched ones hold no more.
        const named = new Set([...delta.patched.map((p) => p.chip), ...delta.added.map((a) => a.name), ...delta.removed]);
        for (const name of configured.changedRouters) expect(named.has(name)).toBe(true);
        // Which routers' registers changed, read off the delta: what comparing the images says.
        expect(chipsChanged(image, delta, ['route'])).toEqual(diffImages(parent, image));
        removedSeen += delta.removed.length;
        reorderedOrAdded += delta.added.length + (delta.order ? 1 : 0);
        rebuilt = applyImageDelta(rebuilt, stored(delta) as ImageDelta);
        expect(rebuilt).toEqual(stored(image));
      } else rebuilt = stored(image);
      parent = image;
    }
    // The dead router left the image and came back into its place.
    expect(removedSeen).toBe(1);
    expect(reorderedOrAdded).toBeGreaterThan(0);
  });

  it('refuse a delta that patches a chip its parent does not configure', () => {
    const parent = { routers: [{ name: 'a', value: 1 }] };
    const delta: ImageDelta = { format: 'weft-image-delta/1', patched: [{ chip: 'b', patch: [] }], added: [], removed: [], rest: {} };
    expect(() => applyImageDelta(parent, delta)).toThrow('the delta patches chip "b", which its parent image does not configure');
  });
});
