import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { EventsService } from '../events/events.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import { FabricsService } from '../fabrics/fabrics.service';
import { Fault } from './fault.entity';
import { FaultsErrorCode, FaultsException } from './faults.exception';

export interface DeclareFault {
  fabricId: number;
  /** `endpoint`: a processor that stopped accepting, named by the router port facing it (recorded, not routed around). */
  kind: 'link' | 'router' | 'endpoint';
  chip: string;
  port?: number;
  note?: string;
}

/** Faults the routing must avoid: declared by operators (a cable to be replaced, a router taken
 * out) or recorded from interrupts; cleared when the element is back in service. */
export type FaultChange = { fault: Fault; change: 'declared' | 'cleared'; by: 'operator' | 'automation' };

@Injectable()
export class FaultsService {
  private readonly listeners = new Set<(change: FaultChange) => void>();

  /** Called after every fault declared or cleared (the automation re-routes on operators' changes). */
  onChange(listener: (change: FaultChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  constructor(
    @InjectRepository(Fault) private readonly faults: Repository<Fault>,
    private readonly fabrics: FabricsService,
    private readonly events: EventsService,
  ) {}

  /** An operator declaring what is already out of service (the same router, or the same cable by
   * either of its ends) would only make a generation identical to the one in force: refused, naming
   * the fault that holds it. */
  private async refuseDuplicate(fabricId: number, kind: string, chip: string, port: number | null): Promise<void> {
    const active = await this.active(fabricId);
    let ends = [`${chip}:${port}`];
    if (kind === 'link' && port !== null) {
      const { design } = await this.fabrics.design(fabricId);
      const cable = design.cables.find((c) => (c.a.chip === chip && c.a.port === port) || (c.b.chip === chip && c.b.port === port));
      if (cable) ends = [`${cable.a.chip}:${cable.a.port}`, `${cable.b.chip}:${cable.b.port}`];
    }
    const same = active.find((f) => f.kind === kind && (kind === 'router' ? f.chip === chip : ends.includes(`${f.chip}:${f.port}`)));
    if (same) {
      const what = kind === 'router' ? `router ${chip}` : `the ${kind} at ${chip}:${port}`;
      throw new FaultsException(
        FaultsErrorCode.FaultAlreadyActive,
        `${what} is already out of service: fault #${same.id} (${same.source}, ${same.declaredAt.toISOString()}${same.note ? `: ${same.note}` : ''})`,
      );
    }
  }

  async declare(input: DeclareFault, source: 'operator' | 'interrupt' = 'operator'): Promise<Fault> {
    const chip = await this.fabrics.chipByName(input.fabricId, input.chip);
    if (input.kind === 'link' || input.kind === 'endpoint') {
      if (input.port === undefined || input.port < 0 || input.port >= chip.portCount) {
        throw new FaultsException(FaultsErrorCode.FaultTargetInvalid, `a ${input.kind} fault needs a port of ${chip.name}: 0 to ${chip.portCount - 1}`);
      }
    } else if (chip.kind !== 'router') {
      throw new FaultsException(FaultsErrorCode.FaultTargetInvalid, `${chip.name} is not a router`);
    }
    if (source === 'operator') await this.refuseDuplicate(input.fabricId, input.kind, chip.name, input.kind === 'router' ? null : input.port!);
    const fault = await this.faults.save(
      this.faults.create({
        fabricId: input.fabricId,
        kind: input.kind,
        chip: chip.name,
        port: input.kind === 'router' ? null : input.port!,
        lane: null,
        source,
        note: input.note ?? '',
        clearedAt: null,
      }),
    );
    await this.events.record({
      fabricId: input.fabricId,
      kind: FabricEventKind.FAULT_DECLARED,
      chip: fault.chip,
      port: fault.port,
      details: { faultId: fault.id, kind: fault.kind, source, note: fault.note },
    });
    for (const listener of this.listeners) listener({ fault, change: 'declared', by: source === 'operator' ? 'operator' : 'automation' });
    return fault;
  }

  async clear(id: number, by: 'operator' | 'automation' = 'operator'): Promise<Fault> {
    const fault = await this.faults.findOne({ where: { id, clearedAt: IsNull() } });
    if (!fault) throw new FaultsException(FaultsErrorCode.FaultNotFound, `no active fault with id ${id}`);
    fault.clearedAt = new Date();
    const saved = await this.faults.save(fault);
    await this.events.record({
      fabricId: fault.fabricId,
      kind: FabricEventKind.FAULT_CLEARED,
      chip: fault.chip,
      port: fault.port,
      details: { faultId: fault.id },
    });
    for (const listener of this.listeners) listener({ fault: saved, change: 'cleared', by });
    return saved;
  }

  active(fabricId: number): Promise<Fault[]> {
    return this.faults.find({ where: { fabricId, clearedAt: IsNull() }, order: { id: 'ASC' } });
  }
}
