import { join } from 'node:path';
import { InstallationFileError } from './installation-error';
import { loadInstallationFile, parseInstallation } from './load-installation';

const fixtures = join(__dirname, '../../../../fixtures');

function problems(text: string): string[] {
  try {
    parseInstallation(text, 'test.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InstallationFileError);
    return (error as InstallationFileError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected the installation to be rejected');
}

const base = {
  format: 'weft-installation/1',
  name: 'x',
  family: 'blackwidow',
  design: { network: 'R1.5', processors: 128, slices: 2 },
};
const withCabling = (cabling: unknown) => JSON.stringify({ ...base, cabling });

describe('installation files', () => {
  it('loads every shipped BlackWidow fixture', () => {
    for (const name of ['bw-r1-32', 'bw-r1.5-288', 'bw-r2-1024', 'bw-r1.5-288-miswired', 'bw-r1.5-288-missing-cable']) {
      const installation = loadInstallationFile(join(fixtures, 'blackwidow', `${name}.json`));
      expect(installation.file.name).toBe(name);
    }
  });

  it('keeps the physical cabling apart from the expected design', () => {
    const missing = loadInstallationFile(join(fixtures, 'blackwidow', 'bw-r1.5-288-missing-cable.json'));
    expect(missing.physical.cables.length).toBe(missing.expected.cables.length - 1);
    const miswired = loadInstallationFile(join(fixtures, 'blackwidow', 'bw-r1.5-288-miswired.json'));
    const from = miswired.physical.cables.find((c) => c.a.chip === 's0.r1.0' && c.a.port === 32)!;
    expect(from.b).toEqual({ chip: 's0.r1.2', port: 32 });
    expect(miswired.expected.cables.find((c) => c.a.chip === 's0.r1.0' && c.a.port === 32)!.b).toEqual({ chip: 's0.r1.1', port: 32 });
  });

  it('names the line and column of malformed JSON', () => {
    expect(problems('{\n  "format": "weft-installation/1",\n  "name": }')).toEqual([expect.stringMatching(/^\$: not valid JSON: .*line 3, column 11/)]);
  });

  it('rejects an unknown family, naming the allowed ones', () => {
    expect(problems(JSON.stringify({ ...base, family: 'dragonfly' }))).toEqual([
      '$.family: must be one of "blackwidow", "bgl", "anton2", "flattened-butterfly", got "dragonfly"',
    ]);
  });

  it('rejects negative and out-of-class sizes', () => {
    expect(problems(JSON.stringify({ ...base, design: { network: 'R1.5', processors: -4 } }))).toEqual([
      '$.design.processors: must be between 1 and 288, got -4',
    ]);
    expect(problems(JSON.stringify({ ...base, design: { network: 'R1.5', processors: 32, slices: 0 } }))).toEqual([
      '$.design.processors: R1.5 needs at least 33 processors (fewer fit a smaller network class), got 32',
      '$.design.slices: must be between 1 and 4, got 0',
    ]);
  });

  it('reports every misplaced field at once', () => {
    expect(problems(JSON.stringify({ ...base, colour: 'red', design: { ...base.design, procesors: 3 } }))).toEqual([
      '$.colour: unknown field (allowed: format, name, description, family, design, cabling, links, maintenance)',
      '$.design.procesors: unknown field (allowed: network, processors, slices, r1Uplinks, portSeed, cableLengths)',
    ]);
  });

  it('rejects a cable end that two cables share', () => {
    // s0.r1.0 port 0 is processor 0's injection link; an extra cable onto it duplicates that end.
    expect(problems(withCabling({ extra: [{ a: { chip: 's0.r1.0', port: 0 }, b: { chip: 's0.r1.1', port: 63 } }] }))).toEqual([
      '$.cabling.extra[0]: duplicate cable end: s0.r1.0 port 0 is also taken by the designed cable p0:0–s0.r1.0:0',
    ]);
    expect(
      problems(
        withCabling({
          missing: [
            { chip: 's0.r1.0', port: 32 },
            { chip: 's0.r1.1', port: 32 },
          ],
        }),
      ),
    ).toEqual(['$.cabling.missing[1]: names the same cable as $.cabling.missing[0]']);
  });

  it('rejects cabling that names chips or ports the design does not have', () => {
    expect(
      problems(
        withCabling({
          missing: [
            { chip: 's9.r1.0', port: 32 },
            { chip: 's0.r1.0', port: 62 },
          ],
        }),
      ),
    ).toEqual(['$.cabling.missing[0].chip: no chip "s9.r1.0" in this R1.5 design', '$.cabling.missing[1]: no cable of the design ends at s0.r1.0 port 62']);
    expect(problems(withCabling({ extra: [{ a: { chip: 'p3', port: 7 }, b: { chip: 's0.r1.1', port: 63 } }] }))).toEqual([
      '$.cabling.extra[0].a.port: chip "p3" has ports 0 to 3, got 7',
    ]);
  });

  it('puts the file name in the message an operator sees', () => {
    expect(() => loadInstallationFile('/nonexistent/fabric.json')).toThrow('/nonexistent/fabric.json: invalid installation\n  $: no such file');
  });
});
