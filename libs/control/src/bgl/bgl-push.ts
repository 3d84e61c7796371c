/**
 * Pushing a BlueGene/L configuration over the control network: the registers of each node whose
 * image differs from what it holds (all of them when that is not known), register by register —
 * only those that changed. Order does not matter to correctness here as it does on BlackWidow: a
 * node's registers are its own, and a packet injected under a node's old table still meets only
 * live elements of the torus, since a fault's new table is pushed after the fault, not before.
 */
import type { FabricDesign, MaintenanceTransport } from '@weft/fabric-model';
import { controlAddresses } from './bgl-discovery';
import { BglImage, nodeWrites } from './bgl-routing-engine';

export interface BglPushReport {
  readonly nodes: number;
  readonly writes: number;
  /** Writes the nodes refused or did not answer, with why. */
  readonly failures: readonly { readonly node: string; readonly register: string; readonly detail: string }[];
}

export async function pushBglImage(transport: MaintenanceTransport, design: FabricDesign, held: BglImage | null, next: BglImage): Promise<BglPushReport> {
  const routes = controlAddresses(design);
  const addresses = new Map(design.chips.map((c, i) => [c.name, routes[i]]));
  const before = new Map((held?.routers ?? []).map((r) => [r.name, r]));
  const failures: { node: string; register: string; detail: string }[] = [];
  let writes = 0;
  let nodes = 0;
  const pending: Promise<void>[] = [];
  for (const image of next.routers) {
    const old = before.get(image.name);
    if (old === image) continue;
    const oldWrites = old ? nodeWrites(old) : null;
    const route = addresses.get(image.name)!;
    let touched = false;
    nodeWrites(image).forEach((write, k) => {
      const was = oldWrites?.[k];
      if (was && was.value.length === write.value.length && was.value.every((v, i) => v === write.value[i])) return;
      touched = true;
      writes++;
      pending.push(
        transport.write(route, write.register, write.index, write.value).then((result) => {
          if (!result.ok) failures.push({ node: image.name, register: write.register, detail: `${result.reason}: ${result.detail}` });
        }),
      );
    });
    if (touched) nodes++;
  }
  await Promise.all(pending);
  return { nodes, writes, failures };
}
