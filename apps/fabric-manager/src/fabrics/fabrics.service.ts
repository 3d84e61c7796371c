import { dialectOf } from '../database/dialect';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import {
  FabricDesign,
  FABRIC_FAMILY_MODELS,
  Installation,
  InstallationFile,
  InstallationFileError,
  loadInstallationFile,
  parseInstallation,
} from '@weft/fabric-model';
import { existsSync } from 'node:fs';
import { isAbsolute, join, normalize, relative } from 'node:path';
import { ROUTING_ENGINES } from '@weft/control';
import { FIXTURES_ROOT } from '../config/store-location';
import { DataSource, MoreThan, Repository } from 'typeorm';
import { batchInsert } from '../database/batch-insert';
import { EmulatorService } from '../emulator/emulator.service';
import { EventsService } from '../events/events.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import { Connection, decodeCursor, toConnection } from '../graphql/pagination';
import { ChipNamesService } from '../chip-names/chip-names.service';
import { Chip } from './chip.entity';
import { Fabric } from './fabric.entity';
import { FabricsErrorCode, FabricsException } from './fabrics.exception';
import { Link } from './link.entity';
import { Port } from './port.entity';

export interface ChipFilter {
  kind?: string;
  /** Placement coordinates the chips must have, by name (BlackWidow: slice, rank). */
  placement?: Record<string, number>;
}

/** Where fixtures are looked up when named by a relative path. */

/**
 * Fabrics in the store. Loading one records the operator's expected design (chips, ports and
 * links as intended) in one transaction and powers up its physical installation in the emulator;
 * the control plane learns the real cabling later, by discovery.
 */
@Injectable()
export class FabricsService {
  /** Each stored fabric's design, by id with the fabric's creation time (ids are reused after a
   * delete): generated from the installation file once, not on every operation that needs it. */
  private readonly designs = new Map<number, { createdAt: number; design: FabricDesign }>();
  /** Told when a fabric is deleted, so that what is kept in memory of it goes with it. */
  private readonly deleteListeners = new Set<(fabricId: number) => void>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Fabric) private readonly fabrics: Repository<Fabric>,
    @InjectRepository(Chip) private readonly chips: Repository<Chip>,
    @InjectRepository(Port) private readonly ports: Repository<Port>,
    @InjectRepository(Link) private readonly links: Repository<Link>,
    private readonly emulator: EmulatorService,
    private readonly events: EventsService,
    private readonly serialNames: ChipNamesService,
  ) {}

  /** Calls `listener` with the id of every fabric deleted from now on. */
  onDelete(listener: (fabricId: number) => void): () => void {
    this.deleteListeners.add(listener);
    return () => this.deleteListeners.delete(listener);
  }

  /** Reads an installation from a fixture file or from inline JSON; exactly one must be given. */
  readInstallation(source: { fixture?: string; installation?: string }): Installation {
    if ((source.fixture === undefined) === (source.installation === undefined)) {
      throw new FabricsException(
        FabricsErrorCode.SourceAmbiguous,
        'give exactly one of "fixture" (a file under fixtures/) or "installation" (the JSON itself)',
      );
    }
    try {
      if (source.installation !== undefined) return parseInstallation(source.installation, 'installation');
      const path = this.fixturePath(source.fixture!);
      // Named as the client named it, relative to fixtures/: the server's directories stay its own.
      return loadInstallationFile(
        path,
        `fixture:${relative(FIXTURES_ROOT, path)
          .replace(/\\/g, '/')
          .replace(/\.json$/, '')}`,
      );
    } catch (error) {
      if (error instanceof InstallationFileError) {
        throw new FabricsException(FabricsErrorCode.InstallationInvalid, error.message, { source: error.source, problems: error.issues });
      }
      throw error;
    }
  }

  /** Fixture names are paths relative to fixtures/ (".json" optional); nothing outside it is read. */
  fixturePath(name: string): string {
    const withExtension = name.endsWith('.json') ? name : `${name}.json`;
    const candidate = isAbsolute(withExtension) ? normalize(withExtension) : join(FIXTURES_ROOT, withExtension);
    const inside = relative(FIXTURES_ROOT, candidate);
    if (inside.startsWith('..') || isAbsolute(inside) || !existsSync(candidate)) {
      throw new FabricsException(FabricsErrorCode.FixtureNotFound, `no fixture "${name}" among the service's fixtures (e.g. "blackwidow/bw-r1.5-288")`);
    }
    return candidate;
  }

  async load(installation: Installation, name?: string): Promise<Fabric> {
    const fabricName = name ?? installation.file.name;
    if (await this.fabrics.exists({ where: { name: fabricName } })) {
      throw new FabricsException(FabricsErrorCode.FabricNameTaken, `a fabric named "${fabricName}" already exists; delete it or load under another name`);
    }
    const design = installation.expected;
    // A family whose routing engine has not landed (its design and fixtures come first) could be
    // stored but never configured: refused before anything is written.
    if (!ROUTING_ENGINES[design.family]) {
      throw new FabricsException(
        FabricsErrorCode.InstallationInvalid,
        `the ${design.family} family has no routing engine in this service yet, so its fabrics cannot be loaded (families with one: ${Object.keys(ROUTING_ENGINES).join(', ')})`,
        { source: installation.source, problems: [{ path: '$.family', message: `no routing engine for "${design.family}" yet` }] },
      );
    }
    const family = FABRIC_FAMILY_MODELS[design.family];
    const portTotal = design.chips.reduce((n, c) => n + c.portCount, 0);
    // One transaction holds the fabric, its chips, ports and links, and the event that says it was
    // loaded: a store that fills up midway keeps none of it, and the retry is not a CONFLICT.
    const saved = await this.dataSource.transaction(async (manager) => {
      const fabric = await manager.save(
        manager.create(Fabric, {
          name: fabricName,
          family: design.family,
          description: installation.file.description,
          installation: JSON.stringify(installation.file),
          source: installation.source,
          summary: { ...design.summary },
          chipCount: design.chips.length,
          portCount: portTotal,
          linkCount: design.cables.length,
        }),
      );
      // Ids are assigned here, inside the write transaction, so that ports and links can refer
      // to chips without reading them back.
      // On PostgreSQL the table is locked for it (SQLite's writer already holds the whole store),
      // and the id sequence moved past them afterwards.
      const postgres = dialectOf(manager) === 'postgres';
      if (postgres) await manager.query(`LOCK TABLE "chip" IN EXCLUSIVE MODE`);
      const [{ next }] = await manager.query(`SELECT COALESCE(MAX("id"), 0) + 1 AS "next" FROM "chip"`);
      const firstChip = Number(next);
      const chipIds = new Map<string, number>();
      const chipRows = design.chips.map((c, i) => {
        chipIds.set(c.name, firstChip + i);
        return [firstChip + i, fabric.id, c.name, c.kind, c.model, JSON.stringify(family.placement(c)), c.processor, c.portCount, 'expected'];
      });
      await batchInsert(manager, 'chip', ['id', 'fabricId', 'name', 'kind', 'model', 'placement', 'processor', 'portCount', 'state'], chipRows);
      if (postgres) await manager.query(`SELECT setval(pg_get_serial_sequence('"chip"', 'id'), (SELECT MAX("id") FROM "chip"))`);
      const portRows: unknown[][] = [];
      for (const c of design.chips) {
        const chipId = chipIds.get(c.name)!;
        for (let p = 0; p < c.portCount; p++) portRows.push([fabric.id, chipId, p, c.portRoles[p], c.virtualRouterOf[p], 'expected']);
      }
      await batchInsert(manager, 'port', ['fabricId', 'chipId', 'number', 'role', 'virtualRouter', 'state'], portRows);
      const linkRows = design.cables.map((l) => [
        fabric.id,
        chipIds.get(l.a.chip)!,
        l.a.port,
        chipIds.get(l.b.chip)!,
        l.b.port,
        l.cableClass,
        l.lengthMeters,
        l.rateGbps,
        l.lanes,
        'expected',
      ]);
      await batchInsert(
        manager,
        'link',
        ['fabricId', 'aChipId', 'aPort', 'bChipId', 'bPort', 'cableClass', 'lengthMeters', 'rateGbps', 'lanes', 'state'],
        linkRows,
      );
      // The event last: on PostgreSQL it holds the event-order lock until the commit.
      await this.events.store(
        { fabricId: fabric.id, kind: FabricEventKind.FABRIC_LOADED, details: { name: fabric.name, source: fabric.source, ...design.summary } },
        manager,
      );
      return fabric;
    });
    this.emulator.attach(saved.id, installation);
    this.designs.set(saved.id, { createdAt: saved.createdAt.getTime(), design });
    await this.events.committed();
    return saved;
  }

  async delete(id: number): Promise<Fabric> {
    const fabric = await this.get(id);
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(Fabric, id);
      await this.events.store({ fabricId: null, kind: FabricEventKind.FABRIC_DELETED, details: { fabricId: id, name: fabric.name } }, manager);
    });
    this.designs.delete(id);
    this.emulator.detach(id);
    this.serialNames.forget(id);
    for (const listener of this.deleteListeners) listener(id);
    await this.events.committed();
    return fabric;
  }

  async get(id: number): Promise<Fabric> {
    const fabric = await this.fabrics.findOne({ where: { id } });
    if (!fabric) throw new FabricsException(FabricsErrorCode.FabricNotFound, `no fabric with id ${id}`);
    return fabric;
  }

  /**
   * The operator's design of a stored fabric, with its installation file — what the control plane
   * may know; the cabling as it physically is stays with the emulator. Generating the design takes
   * a third of a second at 32K; building the whole installation, physical cabling and its checks
   * included, 2–3 s.
   */
  async design(id: number): Promise<{ fabric: Fabric; file: InstallationFile; design: FabricDesign }> {
    const fabric = await this.get(id);
    const file = JSON.parse(fabric.installation) as InstallationFile;
    const createdAt = fabric.createdAt.getTime();
    let cached = this.designs.get(id);
    if (!cached || cached.createdAt !== createdAt)
      this.designs.set(id, (cached = { createdAt, design: FABRIC_FAMILY_MODELS[file.family].generateDesign(file.design) }));
    return { fabric, file, design: cached.design };
  }

  exists(id: number): Promise<boolean> {
    return this.fabrics.existsBy({ id });
  }

  count(): Promise<number> {
    return this.fabrics.count();
  }

  async page(first: number, after?: string): Promise<Connection<Fabric>> {
    const rows = await this.fabrics.find({ where: { id: MoreThan(decodeCursor(after)) }, order: { id: 'ASC' }, take: first + 1 });
    return toConnection(rows, first, await this.fabrics.count());
  }

  async chipPage(fabricId: number, filter: ChipFilter, first: number, after?: string): Promise<Connection<Chip>> {
    const query = () => {
      const q = this.chips.createQueryBuilder('c').where('c.fabricId = :fabricId', { fabricId });
      if (filter.kind !== undefined) q.andWhere('c.kind = :kind', { kind: filter.kind });
      // Placement coordinates by name (the family's own: BlackWidow's slice and rank).
      for (const [key, value] of Object.entries(filter.placement ?? {})) {
        if (!/^[a-z][a-zA-Z0-9]*$/.test(key)) throw new FabricsException(FabricsErrorCode.ChipFilterInvalid, `"${key}" is not a placement coordinate`);
        q.andWhere(
          dialectOf(this.chips.manager) === 'postgres'
            ? `(c.placement::jsonb ->> '${key}')::integer = :${key}`
            : `json_extract(c.placement, '$.${key}') = :${key}`,
          { [key]: value },
        );
      }
      return q;
    };
    const [rows, total] = await Promise.all([
      query()
        .andWhere('c.id > :after', { after: decodeCursor(after) })
        .orderBy('c.id', 'ASC')
        .take(first + 1)
        .getMany(),
      query().getCount(),
    ]);
    return toConnection(rows, first, total);
  }

  async chipByName(fabricId: number, name: string): Promise<Chip> {
    const chip = await this.chips.findOne({ where: { fabricId, name } });
    if (!chip) throw new FabricsException(FabricsErrorCode.ChipNotFound, `fabric ${fabricId} has no chip "${name}"`);
    return chip;
  }

  async chipById(id: number): Promise<Chip> {
    const chip = await this.chips.findOne({ where: { id } });
    if (!chip) throw new FabricsException(FabricsErrorCode.ChipNotFound, `no chip with id ${id}`);
    return chip;
  }

  async portPage(chipId: number, first: number, after?: string): Promise<Connection<Port>> {
    const [rows, total] = await Promise.all([
      this.ports.find({ where: { chipId, id: MoreThan(decodeCursor(after)) }, order: { id: 'ASC' }, take: first + 1 }),
      this.ports.count({ where: { chipId } }),
    ]);
    return toConnection(rows, first, total);
  }

  async linkPage(fabricId: number, first: number, after?: string): Promise<Connection<Link>> {
    const [rows, total] = await Promise.all([
      this.links.find({ where: { fabricId, id: MoreThan(decodeCursor(after)) }, order: { id: 'ASC' }, take: first + 1 }),
      this.links.count({ where: { fabricId } }),
    ]);
    return toConnection(rows, first, total);
  }

  /** Chip names by id, for presenting link ends. */
  async chipNames(ids: number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    const rows = unique.length ? await this.chips.createQueryBuilder('c').select(['c.id', 'c.name']).where('c.id IN (:...ids)', { ids: unique }).getMany() : [];
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
