import { EmulatedFabric, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverFabric } from '../discovery/discovery-sweep';
import type { KnownFabric } from '../discovery/known-fabric';
import { matchDesign } from '../discovery/match-design';
import { configureBlackWidow, faultSet } from './configure-blackwidow';
import { dumpImage, ImageTextError, loadImage } from './image-text';

const GOLDENS = join(__dirname, '../../../../fixtures/goldens');

async function known288(): Promise<KnownFabric> {
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow/bw-r1.5-288.json'));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const discovered = await runUntilSettled(sim, discoverFabric(new YarcMaintenanceController(sim, 0), { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
  return { discovered, matched: matchDesign(discovered, installation.expected), design: installation.expected, attachment: 'p0' };
}

/**
 * The golden images: what the BlackWidow engine computes for the 288-processor R1.5 fixture,
 * healthy and with one sidelink cut, as text. A change that alters one register shows here as a
 * diff of the lines it touches; when the change is meant, record the goldens anew with
 * `WEFT_WRITE_GOLDENS=1 npx jest libs/control/src/blackwidow/image-text.spec.ts` and commit them.
 */
describe('configuration images as text', () => {
  let known: KnownFabric;
  beforeAll(async () => (known = await known288()));

  const cases: [string, () => ReturnType<typeof configureBlackWidow>][] = [
    ['bw-r1.5-288', () => configureBlackWidow(known)],
    ['bw-r1.5-288-cut-s0.r1.2-40', () => configureBlackWidow(known, faultSet([{ kind: 'link', chip: 's0.r1.2', port: 40 }]))],
  ];

  it.each(cases)('%s: the engine computes the golden image, register for register', (name, configure) => {
    const text = dumpImage(configure().image);
    const file = join(GOLDENS, `${name}.image`);
    if (process.env.WEFT_WRITE_GOLDENS === '1' || !existsSync(file)) writeFileSync(file, text);
    expect(text).toEqual(readFileSync(file, 'utf8'));
  });

  it.each(cases)('%s: loads back to the very image it was dumped from', (_name, configure) => {
    const image = configure().image;
    expect(loadImage(dumpImage(image))).toEqual(JSON.parse(JSON.stringify(image)));
  });

  it('names the line it cannot read', () => {
    const text = readFileSync(join(GOLDENS, 'bw-r1.5-288.image'), 'utf8').split('\n');
    const entry = text.findIndex((l) => l.startsWith('    entry 3 '));
    text[entry] = '    entry 3 0x0080/0x001f 40,x';
    expect(() => loadImage(text.join('\n'))).toThrow(new ImageTextError(entry + 1, 'ports: "x" is not a number or a run a-b'));
    expect(() => loadImage('weft-image/1 bgl\n')).toThrow('line 1: family "bgl" has no image format here (blackwidow has)');
  });
});
