import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import {
  applyFaultEntries,
  computeBlackWidowImage,
  ConfigurationImage,
  discoverFabric,
  DiscoveryResult,
  Finding,
  MatchedFabric,
  matchDesign,
  pushImage,
  verifyConfiguration,
  VerificationReport,
} from '@weft/control';
import { buildInstallation, Installation, InstallationFile } from '@weft/fabric-model';
import { DataSource, Repository } from 'typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { EmulatorService } from '../emulator/emulator.service';
import { EventsService } from '../events/events.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import { Fabric } from '../fabrics/fabric.entity';
import { FabricsService } from '../fabrics/fabrics.service';
import { FaultsService } from '../faults/faults.service';

const DIAMETER: Record<string, number> = { R1: 1, 'R1.5': 2, R2: 3, 'R2.5': 4, R3: 5, 'R3.5': 6 };

export interface DiscoveryOutcome {
  discovered: DiscoveryResult;
  matched: MatchedFabric;
  findings: Finding[];
  wallMs: number;
}

export interface ConfigurationOutcome {
  generation: ConfigGeneration;
  verification: VerificationReport;
  problems: string[];
  findings: Finding[];
  writes: number;
}

/**
 * The control plane's loop for one fabric, through the maintenance transport only: discover,
 * compare with the design, compute the routing image (with fault entries), verify it, and push it
 * only if it is proven; every computed configuration is stored as a numbered generation with its
 * diff from the previous one.
 */
@Injectable()
export class ControlService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(ConfigGeneration) private readonly generations: Repository<ConfigGeneration>,
    private readonly fabrics: FabricsService,
    private readonly emulator: EmulatorService,
    private readonly events: EventsService,
    private readonly faults: FaultsService,
  ) {}

  /** The operator's design of a stored fabric (generated once per operation: 2–3 s at 32K). */
  private async installation(fabricId: number): Promise<Installation> {
    const fabric: Fabric = await this.fabrics.get(fabricId);
    return buildInstallation(JSON.parse(fabric.installation) as InstallationFile, fabric.source);
  }

  async discover(fabricId: number): Promise<DiscoveryOutcome> {
    return this.sweep(fabricId, await this.installation(fabricId));
  }

  private async sweep(fabricId: number, installation: Installation): Promise<DiscoveryOutcome> {
    const design = installation.expected;
    const attachment = design.chips.find((c) => c.name === installation.file.maintenanceAttachment)!;
    const start = Date.now();
    const discovered = await discoverFabric(this.emulator.transport(fabricId), {
      controllerPorts: attachment.portRoles.map((_, i) => i).filter((i) => attachment.portRoles[i] !== 'unused'),
    });
    const matched = matchDesign(discovered, design);
    await this.recordDiscovery(fabricId, matched);
    return { discovered, matched, findings: matched.findings, wallMs: Date.now() - start };
  }

  /** Chip and link states in the store follow what discovery saw, in one transaction. */
  private async recordDiscovery(fabricId: number, matched: MatchedFabric): Promise<void> {
    const found = new Set(matched.names.values());
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE "chip" SET "state" = 'missing' WHERE "fabricId" = ?`, [fabricId]);
      const names = [...found];
      for (let i = 0; i < names.length; i += 500) {
        const chunk = names.slice(i, i + 500);
        await manager.query(`UPDATE "chip" SET "state" = 'discovered' WHERE "fabricId" = ? AND "name" IN (${chunk.map(() => '?').join(',')})`, [
          fabricId,
          ...chunk,
        ]);
      }
    });
  }

  async configure(fabricId: number): Promise<ConfigurationOutcome> {
    const installation = await this.installation(fabricId);
    const design = installation.expected;
    const { discovered, matched, findings } = await this.sweep(fabricId, installation);
    const processorsFound = discovered.chips.filter((c) => c.kind === 'endpoint' && c.processor !== undefined).map((c) => c.processor!);
    let highest = 0;
    for (const p of processorsFound) if (p > highest) highest = p;
    const blocks = Math.ceil((highest + 1) / 32);
    // Declared faults: the cable ends and routers the configuration must not use (§7.7).
    const faultyPorts = new Set<string>();
    const faultyRouters = new Set<string>();
    for (const fault of await this.faults.active(fabricId)) {
      if (fault.kind === 'link' && fault.port !== null) faultyPorts.add(`${fault.chip}:${fault.port}`);
      if (fault.kind === 'router') {
        faultyRouters.add(fault.chip);
        for (let p = 0; p < 64; p++) faultyPorts.add(`${fault.chip}:${p}`);
      }
    }
    const usableCables = matched.cables.filter((c) => !faultyPorts.has(`${c.a.chip}:${c.a.port}`) && !faultyPorts.has(`${c.b.chip}:${c.b.port}`));
    const healthyImage = computeBlackWidowImage(discovered, { ...matched, cables: usableCables }, design);
    // Fault entries matter only when something is missing or declared faulty; a fabric found
    // exactly as designed needs none, and computing them costs as much as verifying.
    const healthy = faultyPorts.size === 0 && findings.length === 0;
    const image = healthy ? healthyImage : applyFaultEntries(healthyImage, usableCables, blocks, faultyPorts);
    const verification = verifyConfiguration({
      image,
      faultyPorts,
      faultyRouters,
      cables: matched.cables,
      processors: processorsFound,
      slices: [...new Set(discovered.chips.map((c) => c.slice))],
      diameter: DIAMETER[String(design.summary.network)] ?? 7,
    });
    const previous = await this.generations.findOne({ where: { fabricId }, order: { number: 'DESC' } });
    const diff = diffImages(previous ? (JSON.parse(previous.image) as ConfigurationImage) : null, image);
    let generation = await this.generations.save(
      this.generations.create({
        fabricId,
        number: (previous?.number ?? 0) + 1,
        engine: 'blackwidow',
        image: JSON.stringify(image),
        diff: JSON.stringify(diff),
        state: verification.ok ? 'computed' : 'rejected',
        verification: JSON.stringify({
          ok: verification.ok,
          violations: verification.violations,
          pairsProven: verification.pairsProven,
          maxHops: verification.maxHops,
        }),
        pushedAt: null,
      }),
    );
    await this.events.record({
      fabricId,
      kind: FabricEventKind.GENERATION_COMPUTED,
      details: { generation: generation.number, verified: verification.ok, changedRouters: diff.changed.length, problems: image.problems.length },
    });
    let writes = 0;
    if (verification.ok) {
      // Only the routers whose registers changed are written (DESIGN.md: incremental pushes).
      const changed = new Set(diff.changed);
      const toPush: ConfigurationImage = { ...image, routers: image.routers.filter((r) => changed.has(r.name)) };
      const report = await pushImage(this.emulator.transport(fabricId), toPush);
      writes = report.writes;
      generation.state = report.failures.length === 0 ? 'pushed' : 'failed';
      generation.pushedAt = new Date();
      generation = await this.generations.save(generation);
      await this.events.record({
        fabricId,
        kind: FabricEventKind.GENERATION_PUSHED,
        details: { generation: generation.number, writes, failures: report.failures.slice(0, 20) },
      });
    }
    return { generation, verification, problems: image.problems, findings, writes };
  }
}

/** Which routers' registers differ from the previous generation. */
export function diffImages(previous: ConfigurationImage | null, next: ConfigurationImage): { changed: string[]; removed: string[] } {
  const before = new Map((previous?.routers ?? []).map((r) => [r.name, JSON.stringify({ ...r, route: undefined })]));
  const changed: string[] = [];
  for (const r of next.routers) if (before.get(r.name) !== JSON.stringify({ ...r, route: undefined })) changed.push(r.name);
  const names = new Set(next.routers.map((r) => r.name));
  return { changed, removed: [...before.keys()].filter((n) => !names.has(n)) };
}
