import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { applyImageDelta, ChipImages, ImageDelta, imageDelta } from '@weft/control';
import { Repository } from 'typeorm';
import { FabricsService } from '../fabrics/fabrics.service';
import { ConfigGeneration } from './config-generation.entity';

/**
 * Deltas stored in a row before the row at the end of the chain is rewritten whole (after its push,
 * off the reaction's path): reading a generation never applies more deltas than this.
 */
export const DELTAS_BEFORE_WHOLE = 32;
/** Images read from the store kept in memory besides each fabric's latest and pushed ones. */
const RECENT_IMAGES = 4;

interface HeldImage {
  readonly fabricId: number;
  readonly number: number;
  readonly image: ChipImages;
  /** Deltas between this generation and the nearest one stored whole (0: it is whole). */
  readonly depth: number;
  /** Characters of the image stored whole: its own where it was, else that of the whole one its chain starts from. */
  readonly wholeChars: number;
}

/**
 * The register images of a fabric's generations (DESIGN.md, "Configuration generations"): each
 * stored as a delta on the generation before it (libs/control image-delta) where that is smaller
 * than the image, and read back by applying the deltas down from the nearest whole image. The last
 * generation stored and the last pushed — what the fabric holds — are kept in memory per fabric, so
 * the store records what happened rather than carrying images between the steps of a reaction.
 */
@Injectable()
export class GenerationImages {
  private readonly latest = new Map<number, HeldImage>();
  private readonly pushed = new Map<number, HeldImage>();
  private readonly recent: HeldImage[] = [];

  constructor(
    @InjectRepository(ConfigGeneration) private readonly rows: Repository<ConfigGeneration>,
    // Only told of deletions (a study's worker, outside Nest, has no fabrics to delete).
    @Inject(FabricsService) fabrics: Pick<FabricsService, 'onDelete'>,
  ) {
    fabrics.onDelete((fabricId) => this.forget(fabricId));
  }

  /**
   * The image column of generation `number`, to be stored: a delta on the latest generation when
   * that one is in memory and the delta takes less than half the characters of the image whole
   * (issue 55: a fault that changes one register of every chip — Anton 2's route policies around a
   * dead channel — is still a small delta); else whole. `delta` is the change from the latest
   * generation whichever is stored (null where it is not in memory): what changed is read from it.
   */
  encode(fabricId: number, number: number, image: ChipImages): { image: string; parentNumber: number | null; delta: ImageDelta | null } {
    const parent = this.latest.get(fabricId);
    if (parent && parent.number === number - 1) {
      const { delta, chips } = imageDelta(parent.image, image);
      const text = JSON.stringify(delta);
      // Few chips changed, or many a little.
      if (chips * 2 < Math.max(1, image.routers.length) || text.length * 2 < parent.wholeChars) return { image: text, parentNumber: parent.number, delta };
      return { image: JSON.stringify(image), parentNumber: null, delta };
    }
    return { image: JSON.stringify(image), parentNumber: null, delta: null };
  }

  /** Generation `row` was stored with `image` (encoded by `encode`). */
  stored(row: ConfigGeneration, image: ChipImages): void {
    const parent = row.parentNumber === null ? null : this.latest.get(row.fabricId);
    this.latest.set(row.fabricId, {
      fabricId: row.fabricId,
      number: row.number,
      image,
      depth: parent ? parent.depth + 1 : 0,
      wholeChars: parent ? parent.wholeChars : row.image.length,
    });
  }

  /**
   * The number of the generation the fabric holds, where it is also the latest stored and `image`
   * is the same to the last register and annotation (nothing to store or push); else null.
   */
  inForceAndSame(fabricId: number, image: ChipImages): number | null {
    const pushed = this.pushed.get(fabricId);
    if (!pushed || this.latest.get(fabricId)?.number !== pushed.number) return null;
    const { delta, chips } = imageDelta(pushed.image, image);
    if (chips > 0 || delta.order) return null;
    const { routers: _routers, ...rest } = pushed.image as ChipImages & Record<string, unknown>;
    void _routers;
    return JSON.stringify(rest) === JSON.stringify(delta.rest) ? pushed.number : null;
  }

  /** The fabric now holds generation `number`'s image. */
  markPushed(fabricId: number, number: number, image: ChipImages): void {
    const latest = this.latest.get(fabricId);
    this.pushed.set(fabricId, {
      fabricId,
      number,
      image,
      depth: latest?.number === number ? latest.depth : DELTAS_BEFORE_WHOLE,
      wholeChars: latest?.number === number ? latest.wholeChars : 0,
    });
  }

  /** The image of generation `number` of the fabric: from memory, else read back from the store. */
  async read<I extends ChipImages>(fabricId: number, number: number): Promise<I> {
    return (await this.held(fabricId, number)).image as I;
  }

  private async held(fabricId: number, number: number): Promise<HeldImage> {
    const known = this.inMemory(fabricId, number);
    if (known) return known;
    const row = await this.rows.findOne({ where: { fabricId, number }, select: { id: true, image: true, parentNumber: true } });
    if (!row) throw new Error(`fabric ${fabricId} has no generation ${number}`);
    let held: HeldImage;
    if (row.parentNumber === null) held = { fabricId, number, image: JSON.parse(row.image) as ChipImages, depth: 0, wholeChars: row.image.length };
    else {
      const parent = await this.held(fabricId, row.parentNumber);
      held = {
        fabricId,
        number,
        image: applyImageDelta(parent.image, JSON.parse(row.image) as ImageDelta),
        depth: parent.depth + 1,
        wholeChars: parent.wholeChars,
      };
    }
    this.recent.unshift(held);
    this.recent.length = Math.min(this.recent.length, RECENT_IMAGES);
    return held;
  }

  private inMemory(fabricId: number, number: number): HeldImage | undefined {
    for (const held of [this.latest.get(fabricId), this.pushed.get(fabricId), ...this.recent]) {
      if (held && held.fabricId === fabricId && held.number === number) return held;
    }
    return undefined;
  }

  /**
   * Where the latest generation of the fabric lies at the end of a long chain of deltas, its row
   * is rewritten whole (the same image), so that reading any generation stays bounded. Called once
   * its push is done, so the reaction that made it does not wait for this.
   */
  async compact(fabricId: number): Promise<void> {
    const latest = this.latest.get(fabricId);
    if (!latest || latest.depth < DELTAS_BEFORE_WHOLE) return;
    const text = JSON.stringify(latest.image);
    await this.rows.update({ fabricId, number: latest.number }, { image: text, parentNumber: null });
    const whole = { ...latest, depth: 0, wholeChars: text.length };
    this.latest.set(fabricId, whole);
    if (this.pushed.get(fabricId)?.number === latest.number) this.pushed.set(fabricId, whole);
  }

  forget(fabricId: number): void {
    this.latest.delete(fabricId);
    this.pushed.delete(fabricId);
    for (let i = this.recent.length - 1; i >= 0; i--) if (this.recent[i].fabricId === fabricId) this.recent.splice(i, 1);
  }
}
