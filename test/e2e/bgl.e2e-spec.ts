import type { Client } from 'graphql-ws';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { createKey, loadFixture, TestService } from './support/test-service';

interface StreamedEvent {
  kind: string;
  chip: string | null;
  port: number | null;
  details: Record<string, unknown>;
}

/**
 * A BlueGene/L midplane through the service: loaded, discovered over its JTAG control network,
 * configured and pushed; a node dies and automation declares it, computes the route-override
 * tables around it, proves and pushes them, with no operator involved.
 */
describe('BlueGene/L through the service', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let operator: string;
  let fabricId: string;
  let client: Client;
  const stream: StreamedEvent[] = [];

  const streamed = async (predicate: (e: StreamedEvent) => boolean, what: string): Promise<StreamedEvent> => {
    for (let i = 0; i < 600; i++) {
      const found = stream.find(predicate);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the event stream never carried ${what}; it carried ${stream.map((e) => e.kind).join(', ')}`);
  };

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = await loadFixture(service, operator, 'bgl/bgl-midplane-512');
    client = service.wsClient(operator);
    await new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($f: ID) { fabricEvents(fabricId: $f) { kind chip port details } }', variables: { f: fabricId } },
        { next: (m) => stream.push(m.data!.fabricEvents as StreamedEvent), error: reject, complete: () => undefined },
      );
      client.on('connected', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 200));
  });
  afterAll(async () => {
    await client.dispose();
    await service.stop();
  });

  it('is discovered over JTAG and configured: every node written, the proof held', async () => {
    const discovered = await service.gql<{ discoverFabric: { chipsFound: number; cablesFound: number; findings: unknown[] } }>(
      'mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound cablesFound findings { kind message } } }',
      { input: { fabricId } },
      operator,
    );
    expect(discovered.data!.discoverFabric).toEqual({ chipsFound: 512, cablesFound: 1536, findings: [] });
    const configured = await service.gql<{ configureFabric: { generation: { number: number; state: string }; writes: number } }>(
      'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } writes } }',
      { input: { fabricId } },
      operator,
    );
    expect(configured.errors).toBeUndefined();
    expect(configured.data!.configureFabric.generation).toEqual({ number: 1, state: 'pushed' });
    expect(configured.data!.configureFabric.writes).toBe(512 * 3);
  });

  it("a node dies: automation declares it from its neighbours' link-down interrupts and pushes tables that route around it", async () => {
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'kill-router', chip: 'x2.y3.z4' });
    const declared = await streamed((e) => e.kind === 'FAULT_DECLARED' && e.chip === 'x2.y3.z4', 'the dead node declared');
    expect(declared.details).toMatchObject({ kind: 'router' });
    const pushed = await streamed((e) => e.kind === 'GENERATION_PUSHED' && (e.details as { generation?: number }).generation === 2, 'generation 2 pushed');
    expect(pushed).toBeDefined();
    const computed = stream.find((e) => e.kind === 'GENERATION_COMPUTED' && (e.details as { generation?: number }).generation === 2)!;
    expect(computed.details).toMatchObject({ verified: true, engine: 'bgl' });
  });
});
