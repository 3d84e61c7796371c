import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { FABRIC_FAMILY_MODELS, FabricFamily, PictureCells, PictureChip, pictureCells, PictureLayout, STATE_SEVERITY } from '@weft/fabric-model';
import { DataSource } from 'typeorm';
import { EventsService } from '../events/events.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import { FabricsService } from '../fabrics/fabrics.service';
import { FaultsService } from '../faults/faults.service';
import { FabricPictureModel } from './fabric-picture.model';
import { FabricsErrorCode, FabricsException } from '../fabrics/fabrics.exception';

/** Above this many chips a fabric is drawn aggregated into cells unless chips are asked for. */
export const PICTURE_CHIP_LIMIT = 5000;

export type PictureDetail = 'auto' | 'chips' | 'cells';

interface ChipRow extends PictureChip {
  id: number;
}

/** A discovery state by its first letter, as the states query packs them (DiscoveryState). */
const STATES: Readonly<Record<string, string>> = { e: 'expected', d: 'discovered', m: 'missing', u: 'unexpected' };

const worse = (a: string, b: string) => ((STATE_SEVERITY[b] ?? 0) > (STATE_SEVERITY[a] ?? 0) ? b : a);

/** What a fabric's picture is drawn from that stays while its chips and cables do: read once, kept. */
interface Structure {
  /** Chips and cables as counted when it was read: a fabric whose cabling discovery changed is read again. */
  readonly fingerprint: string;
  readonly chips: readonly ChipRow[];
  readonly layout: PictureLayout;
  readonly traceExamples: readonly string[];
  readonly cells: PictureCells;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly aPort: Int32Array;
  readonly bPort: Int32Array;
  readonly classes: readonly string[];
}

/**
 * The fabric picture the console draws (issue 39), from the store: chips and cables with their
 * discovery states and the faults in force, in the family's layout. A fabric of more than
 * PICTURE_CHIP_LIMIT chips comes aggregated — each cell of neighbouring chips one mark, the cables
 * between two cells one bundle, each showing the worst state within — and a cell opens to its
 * chips, with the chips one cable away for context.
 *
 * The structure — chips, their places and cells, the cables' ends — is read once per fabric and
 * kept (reading 454,656 cable rows takes 1.5 s); each picture reads only the states, packed a
 * letter a row by the database, and the faults in force.
 */
@Injectable()
export class FabricPictureService {
  private readonly structures = new Map<number, Structure>();

  constructor(
    private readonly fabrics: FabricsService,
    private readonly faults: FaultsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    events: EventsService,
  ) {
    // A deleted fabric's structure is let go (a 32K fabric's is tens of megabytes).
    events.listen((e) => {
      if (e.kind === FabricEventKind.FABRIC_DELETED) this.structures.delete(Number((e.details as { fabricId?: unknown }).fabricId));
    });
  }

  async picture(fabricId: number, detail: PictureDetail, cell?: number): Promise<FabricPictureModel> {
    const fabric = await this.fabrics.get(fabricId);
    const [structure, packed, faults] = await Promise.all([
      this.structure(fabric.id, fabric.family as FabricFamily),
      this.states(fabric.id),
      this.faults.active(fabric.id),
    ]);
    const { chips, layout, a, b } = structure;
    const family = FABRIC_FAMILY_MODELS[fabric.family as FabricFamily];
    const faultyRouters = new Set(faults.filter((f) => f.kind === 'router').map((f) => f.chip));
    const faultyEnds = new Set(faults.filter((f) => f.kind !== 'router' && f.port !== null).map((f) => `${f.chip}:${f.port}`));
    const chipState = chips.map((c, i) => (faultyRouters.has(c.name) ? 'faulty' : (STATES[packed.chips[i]] ?? 'expected')));
    const cableState: string[] = new Array<string>(a.length);
    for (let j = 0; j < a.length; j++) cableState[j] = STATES[packed.cables[j]] ?? 'expected';
    if (faultyEnds.size > 0)
      for (let j = 0; j < a.length; j++)
        if (faultyEnds.has(`${chips[a[j]].name}:${structure.aPort[j]}`) || faultyEnds.has(`${chips[b[j]].name}:${structure.bPort[j]}`))
          cableState[j] = 'faulty';
    const base = {
      fabricId: fabric.id,
      family: fabric.family,
      layout: family.picture.description,
      traceExamples: [...structure.traceExamples],
      groups: [...layout.groups],
      totalChips: chips.length,
      totalCables: a.length,
    };

    const cells = structure.cells;
    if (cell !== undefined) {
      if (!Number.isInteger(cell) || cell < 0 || cell >= cells.labels.length)
        throw new FabricsException(FabricsErrorCode.ChipNotFound, `fabric ${fabric.id} has no cell ${cell} (its picture has ${cells.labels.length})`);
      // The cell's chips, every cable touching one, and the chips at their far ends.
      const shown = new Map<number, number>();
      const take = (i: number) => {
        if (!shown.has(i)) shown.set(i, shown.size);
      };
      chips.forEach((_, i) => cells.cellOf[i] === cell && take(i));
      const cables: number[] = [];
      for (let j = 0; j < a.length; j++)
        if (cells.cellOf[a[j]] === cell || cells.cellOf[b[j]] === cell) {
          cables.push(j);
          take(a[j]);
          take(b[j]);
        }
      const order = [...shown.keys()];
      return {
        ...base,
        aggregated: false,
        cell,
        cellLabel: cells.labels[cell],
        chipNames: order.map((i) => chips[i].name),
        chipKinds: order.map((i) => chips[i].kind),
        chipStates: order.map((i) => chipState[i]),
        chipX: order.map((i) => layout.x[i]),
        chipY: order.map((i) => layout.y[i]),
        chipGroups: order.map((i) => layout.group[i]),
        chipCells: order.map((i) => cells.cellOf[i]),
        chipSizes: order.map(() => 1),
        cableA: cables.map((j) => shown.get(a[j])!),
        cableAPort: cables.map((j) => structure.aPort[j]),
        cableB: cables.map((j) => shown.get(b[j])!),
        cableBPort: cables.map((j) => structure.bPort[j]),
        cableClasses: cables.map((j) => structure.classes[j]),
        cableStates: cables.map((j) => cableState[j]),
        cableCounts: cables.map(() => 1),
      };
    }
    if (detail === 'cells' || (detail === 'auto' && chips.length > PICTURE_CHIP_LIMIT)) {
      // One mark a cell with its worst chip; one bundle a pair of cells with its worst cable.
      const markState = cells.labels.map(() => 'discovered');
      chips.forEach((_, i) => (markState[cells.cellOf[i]] = worse(markState[cells.cellOf[i]], chipState[i])));
      const bundles = new Map<number, number>();
      const bundleA: number[] = [];
      const bundleB: number[] = [];
      const bundleState: string[] = [];
      const bundleCount: number[] = [];
      const bundleClass: string[] = [];
      const K = cells.labels.length;
      for (let j = 0; j < a.length; j++) {
        let p = cells.cellOf[a[j]];
        let q = cells.cellOf[b[j]];
        if (p > q) [p, q] = [q, p];
        const key = p * K + q;
        let k = bundles.get(key);
        if (k === undefined) {
          k = bundleA.length;
          bundles.set(key, k);
          bundleA.push(p);
          bundleB.push(q);
          bundleState.push(cableState[j]);
          bundleCount.push(0);
          bundleClass.push(structure.classes[j]);
        }
        bundleCount[k]++;
        bundleState[k] = worse(bundleState[k], cableState[j]);
        if (bundleClass[k] !== structure.classes[j]) bundleClass[k] = 'mixed';
      }
      return {
        ...base,
        aggregated: true,
        cell: null,
        cellLabel: null,
        chipNames: [...cells.labels],
        chipKinds: cells.labels.map(() => 'cell'),
        chipStates: markState,
        chipX: Array.from(cells.x),
        chipY: Array.from(cells.y),
        chipGroups: Array.from(cells.group),
        chipCells: cells.labels.map((_, k) => k),
        chipSizes: Array.from(cells.size),
        cableA: bundleA,
        cableAPort: bundleA.map(() => -1),
        cableB: bundleB,
        cableBPort: bundleB.map(() => -1),
        cableClasses: bundleClass,
        cableStates: bundleState,
        cableCounts: bundleCount,
      };
    }
    return {
      ...base,
      aggregated: false,
      cell: null,
      cellLabel: null,
      chipNames: chips.map((c) => c.name),
      chipKinds: chips.map((c) => c.kind),
      chipStates: chipState,
      chipX: Array.from(layout.x),
      chipY: Array.from(layout.y),
      chipGroups: Array.from(layout.group),
      chipCells: Array.from(cells.cellOf),
      chipSizes: chips.map(() => 1),
      cableA: Array.from(a),
      cableAPort: Array.from(structure.aPort),
      cableB: Array.from(b),
      cableBPort: Array.from(structure.bPort),
      cableClasses: [...structure.classes],
      cableStates: cableState,
      cableCounts: cableState.map(() => 1),
    };
  }

  /** The fabric's chips, places, cells and cable ends: kept while its chips and cables stay as they were counted. */
  /** The driver's placeholder for parameter i (1-based). */
  private param(i: number): string {
    return this.dataSource.options.type === 'postgres' ? `$${i}` : '?';
  }

  private async structure(fabricId: number, family: FabricFamily): Promise<Structure> {
    const p = (i: number) => this.param(i);
    const [count] = await this.dataSource.query<{ chips: number; chipMax: number | null; links: number; linkMax: number | null }[]>(
      `SELECT (SELECT count(*) FROM "chip" WHERE "fabricId" = ${p(1)}) AS "chips", (SELECT max("id") FROM "chip" WHERE "fabricId" = ${p(2)}) AS "chipMax", ` +
        `(SELECT count(*) FROM "link" WHERE "fabricId" = ${p(3)}) AS "links", (SELECT max("id") FROM "link" WHERE "fabricId" = ${p(4)}) AS "linkMax"`,
      [fabricId, fabricId, fabricId, fabricId],
    );
    const fingerprint = `${count.chips}/${count.chipMax}/${count.links}/${count.linkMax}`;
    const kept = this.structures.get(fabricId);
    if (kept && kept.fingerprint === fingerprint) return kept;
    const [rawChips, links] = await Promise.all([
      this.dataSource.query<(Omit<ChipRow, 'placement'> & { placement: string })[]>(
        `SELECT "id", "name", "kind", "placement", "processor" FROM "chip" WHERE "fabricId" = ${p(1)} ORDER BY "id"`,
        [fabricId],
      ),
      this.dataSource.query<{ aChipId: number; aPort: number; bChipId: number; bPort: number; cableClass: string }[]>(
        `SELECT "aChipId", "aPort", "bChipId", "bPort", "cableClass" FROM "link" WHERE "fabricId" = ${p(1)} ORDER BY "id"`,
        [fabricId],
      ),
    ]);
    const chips: ChipRow[] = rawChips.map((c) => ({ ...c, placement: JSON.parse(c.placement) as Record<string, number> }));
    const layout = FABRIC_FAMILY_MODELS[family].picture.layout(chips);
    const index = new Map(chips.map((c, i) => [c.id, i]));
    const structure: Structure = {
      fingerprint,
      chips,
      layout,
      traceExamples: FABRIC_FAMILY_MODELS[family].picture.traceExamples(chips),
      cells: pictureCells(chips, layout),
      a: Int32Array.from(links, (l) => index.get(l.aChipId)!),
      b: Int32Array.from(links, (l) => index.get(l.bChipId)!),
      aPort: Int32Array.from(links, (l) => l.aPort),
      bPort: Int32Array.from(links, (l) => l.bPort),
      classes: links.map((l) => l.cableClass),
    };
    this.structures.set(fabricId, structure);
    return structure;
  }

  /** Every chip's and cable's discovery state, a letter a row in id order, packed by the database into one string each. */
  private async states(fabricId: number): Promise<{ chips: string; cables: string }> {
    const pack = (table: string) =>
      this.dataSource.options.type === 'postgres'
        ? `SELECT string_agg(substr("state", 1, 1), '' ORDER BY "id") AS "packed" FROM "${table}" WHERE "fabricId" = $1`
        : `SELECT group_concat(substr("state", 1, 1), '' ORDER BY "id") AS "packed" FROM "${table}" WHERE "fabricId" = ?`;
    const [[chips], [cables]] = await Promise.all([
      this.dataSource.query<{ packed: string | null }[]>(pack('chip'), [fabricId]),
      this.dataSource.query<{ packed: string | null }[]>(pack('link'), [fabricId]),
    ]);
    return { chips: chips.packed ?? '', cables: cables.packed ?? '' };
  }
}
