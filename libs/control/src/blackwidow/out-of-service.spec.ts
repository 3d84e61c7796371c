import { designAsDiscovered } from '../discovery/known-fabric';
import { smallDesign } from '../testing/small-fabrics';
import { configureBlackWidow, faultSet } from './configure-blackwidow';
import { portsOutOfService } from './out-of-service';
import { GenerationCircumstances, RecordedFault, whyNotConfigured } from '../engine/out-of-service';

// A 128-processor R1.5 fabric, one slice: four R1 routers, each with 32 sidelinks to the others.
const design = smallDesign('R1.5', 128, 3);
const known = designAsDiscovered(design, 'p0');
const sidelinks = (chip: string) => design.cables.filter((c) => c.a.chip === chip && c.b.chip.startsWith('s')).map((c) => ({ port: c.a.port, far: c.b }));
const fault = (id: number, kind: string, chip: string, port: number | null, source = 'operator', note = ''): RecordedFault => ({
  id,
  kind,
  chip,
  port,
  source,
  declaredAt: '2026-11-22T14:02:11.000Z',
  note,
});
const imageWith = (faults: RecordedFault[]) => configureBlackWidow(known, faultSet(faults)).image;
const router = (image: ReturnType<typeof imageWith>, name: string) => image.routers.find((r) => r.name === name)!;

describe('why a cabled port is out of service in a generation', () => {
  it('lists nothing on a healthy fabric: every cabled port is in use', () => {
    const image = imageWith([]);
    for (const r of image.routers) expect(portsOutOfService(r, design, { faults: [], findings: [] })).toEqual([]);
  });

  it('names the cable fault at either end of the cable, and the far router that is out of service', () => {
    const [cut] = sidelinks('s0.r1.0');
    const other = sidelinks('s0.r1.0').find((s) => s.far.chip !== cut.far.chip)!;
    const faults = [fault(3, 'link', cut.far.chip, cut.far.port, 'interrupt'), fault(4, 'router', other.far.chip, null, 'operator', 'fan tray swap')];
    const image = imageWith(faults);
    const circumstances: GenerationCircumstances = { faults, findings: [] };
    const near = portsOutOfService(router(image, 's0.r1.0'), design, circumstances);
    expect(near.find((o) => o.port === cut.port)).toEqual({
      port: cut.port,
      designedAs: 'side',
      farEnd: `${cut.far.chip}:${cut.far.port}`,
      reason: `cable fault on ${cut.far.chip}:${cut.far.port}, the far end (fault #3, recorded from an interrupt at 2026-11-22 14:02:11 UTC)`,
      faultId: 3,
      finding: null,
    });
    // Every cable to the dead router is out of service, for that fault.
    const toDead = sidelinks('s0.r1.0').filter((s) => s.far.chip === other.far.chip);
    expect(near.filter((o) => o.faultId === 4).map((o) => o.port)).toEqual(toDead.map((s) => s.port).sort((a, b) => a - b));
    expect(near.find((o) => o.faultId === 4)!.reason).toBe(
      `the far router ${other.far.chip} is out of service (fault #4, declared by an operator at 2026-11-22 14:02:11 UTC: fan tray swap)`,
    );
    expect(near).toHaveLength(toDead.length + 1);
    // The far end of the cut cable says it was declared on its own port.
    const far = portsOutOfService(router(image, cut.far.chip), design, circumstances).find((o) => o.port === cut.far.port)!;
    expect(far.reason).toMatch(new RegExp(`^cable fault on ${cut.far.chip}:${cut.far.port} \\(fault #3`));
  });

  it('gives the discovery finding where no fault explains it, and says when a generation kept no circumstances', () => {
    const [cut] = sidelinks('s0.r1.2');
    const image = imageWith([fault(9, 'link', 's0.r1.2', cut.port)]);
    const missing = { kind: 'missing-cable' as const, message: `cable s0.r1.2:${cut.port}–… is missing`, ends: [{ chip: 's0.r1.2', port: cut.port }, cut.far] };
    const [byFinding] = portsOutOfService(router(image, 's0.r1.2'), design, { faults: [], findings: [missing] });
    expect(byFinding).toMatchObject({ port: cut.port, reason: `discovery: ${missing.message}`, faultId: null, finding: 'missing-cable' });
    const [unexplained] = portsOutOfService(router(image, 's0.r1.2'), design, { faults: [], findings: [] });
    expect(unexplained.reason).toBe('no fault or finding names it: the routing found no use for it');
    const [old] = portsOutOfService(router(image, 's0.r1.2'), design, null);
    expect(old.reason).toMatch(/^not recorded: this generation was computed before weft kept/);
  });

  it('says why a router has no configuration at all: a router fault on it, or the sweep not reaching it', () => {
    const unreached = { kind: 'unreachable-chip' as const, message: 's0.r1.1 was not reached', ends: [], chip: 's0.r1.1' };
    const circumstances = { faults: [fault(7, 'router', 's0.r1.2', null, 'interrupt')], findings: [unreached] };
    expect(whyNotConfigured('s0.r1.2', circumstances)).toBe('it is out of service (fault #7, recorded from an interrupt at 2026-11-22 14:02:11 UTC)');
    expect(whyNotConfigured('s0.r1.1', circumstances)).toBe('discovery: s0.r1.1 was not reached');
    expect(whyNotConfigured('s0.r1.3', circumstances)).toBeNull();
    expect(whyNotConfigured('s0.r1.2', null)).toBeNull();
  });
});
