import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EmulatedFabric } from '@weft/emulator';
import { FabricDesign, buildInstallation, InstallationFile } from '@weft/fabric-model';
import { Repository } from 'typeorm';
import { Fabric } from '../fabrics/fabric.entity';

/**
 * Hosts the built-in emulated fabrics: the physical installations (with their cabling faults) that
 * the control plane has to discover. Nothing outside the maintenance transport may read them.
 */
@Injectable()
export class EmulatorService implements OnApplicationBootstrap {
  private readonly logger = new Logger(EmulatorService.name);
  private readonly fabrics = new Map<number, EmulatedFabric>();
  private running = false;

  constructor(@InjectRepository(Fabric) private readonly store: Repository<Fabric>) {}

  /** After a restart, every stored fabric is powered up again from its installation file. */
  async onApplicationBootstrap(): Promise<void> {
    const rows = await this.store.find({ select: { id: true, name: true, installation: true, source: true } });
    for (const row of rows) {
      const installation = buildInstallation(JSON.parse(row.installation) as InstallationFile, row.source);
      this.attach(row.id, installation.physical);
    }
    this.running = true;
    if (rows.length > 0) this.logger.log(`emulated fabrics powered up: ${rows.map((r) => r.name).join(', ')}`);
  }

  attach(fabricId: number, physical: FabricDesign): EmulatedFabric {
    const fabric = new EmulatedFabric(physical);
    this.fabrics.set(fabricId, fabric);
    return fabric;
  }

  detach(fabricId: number): void {
    this.fabrics.delete(fabricId);
  }

  isRunning(): boolean {
    return this.running;
  }

  status(): { fabrics: number; chips: number; ports: number } {
    let chips = 0;
    let ports = 0;
    for (const f of this.fabrics.values()) {
      chips += f.chipCount;
      ports += f.portCount;
    }
    return { fabrics: this.fabrics.size, chips, ports };
  }
}
