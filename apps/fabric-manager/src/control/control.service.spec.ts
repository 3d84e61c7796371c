import { Logger } from '@nestjs/common';
import { ControlService } from './control.service';

// Each fabric's read-back hangs until the test lets it go: what readiness waits for is what shows.
const readBacks = new Map<number, () => void>();
jest.mock('@weft/control', () => ({
  ...jest.requireActual('@weft/control'),
  routingEngineNamed: () => ({
    reconcile: (transport: { fabricId: number }) =>
      new Promise((resolve) => readBacks.set(transport.fabricId, () => resolve({ checked: 10, rewritten: 0, failures: [] }))),
  }),
}));

/** A ControlService over stand-ins: fabrics 1–3 hold pushed generations; a push on fabric 2 was cut off by the last stop. */
function service(keepsFabrics: boolean) {
  const pushed = [{ fabricId: 1 }, { fabricId: 2 }, { fabricId: 3 }];
  const generations = {
    createQueryBuilder: () => ({ select: () => ({ where: () => ({ getRawMany: async () => pushed }) }) }),
    findOne: async () => ({ id: 7, number: 1, engine: 'stand-in' }),
    update: async () => undefined,
  };
  const pushes = { find: async () => [{ id: 5, fabricId: 2, generationId: 7, phases: 3, phasesDone: 1 }], update: async () => undefined };
  const images = { read: async () => ({ routers: [] }), markPushed: () => undefined };
  const transports = { transport: (fabricId: number) => ({ fabricId }), onReattached: () => undefined };
  const events = { record: async () => undefined };
  const emulator = { keepsFabrics: () => keepsFabrics };
  const none = {} as never;
  return new ControlService(
    none,
    generations as never,
    none,
    pushes as never,
    none,
    none,
    emulator as never,
    transports as never,
    events as never,
    none,
    none,
    images as never,
  );
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('readiness after a restart or a takeover (issue 54: 13–19 s with 6–7 fabrics)', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => readBacks.clear());

  it('waits, where a fabric process kept the fabrics, only for the fabric whose push was cut off; the others are read back while ready', async () => {
    const control = service(true);
    control.onApplicationBootstrap();
    await settle();
    expect([...readBacks.keys()].sort()).toEqual([1, 2, 3]);
    expect(control.recoveryDone).toBe(false);
    readBacks.get(2)!();
    await settle();
    expect(control.recoveryDone).toBe(true);
    expect(control.readingBack).toBe(2);
    readBacks.get(1)!();
    readBacks.get(3)!();
    await control.recovered;
    expect(control.readingBack).toBe(0);
  });

  it('waits for every fabric where they powered up blank with the manager (an embedded emulator)', async () => {
    const control = service(false);
    control.onApplicationBootstrap();
    await settle();
    readBacks.get(2)!();
    readBacks.get(1)!();
    await settle();
    expect(control.recoveryDone).toBe(false);
    readBacks.get(3)!();
    await control.recovered;
    expect(control.recoveryDone).toBe(true);
  });
});
