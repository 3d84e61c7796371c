import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dialectOf, storeName } from './dialect';
import { claimOf, diskNearlyFull, freeDiskBytes, HEARTBEAT_MS, isStoreFull, releaseClaim, renewClaim, sqliteOf, StoreClaim } from './store-ownership';

/** The room a ready store has left: a fabric's load or a generation's image takes hundreds of
 * kilobytes, so a store that cannot take one more megabyte is full for every purpose but the smallest
 * writes. */
export const STORE_HEADROOM_BYTES = 1 << 20;

export interface StoreWritability {
  writable: boolean;
  /** Why not, in an operator's terms. */
  reason?: string;
}

/**
 * Keeps this service's claim on the store (renewed every HEARTBEAT_MS, given up on a clean stop),
 * and answers whether the store can still be written — what readiness means besides recovery done.
 */
@Injectable()
export class StoreOwnerService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Store');
  private readonly claim: StoreClaim | undefined;
  private heartbeat?: NodeJS.Timeout;
  private lost = false;
  private probed?: { at: number; result: StoreWritability };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.claim = claimOf(dataSource);
  }

  onModuleInit(): void {
    if (!this.claim) return;
    this.heartbeat = setInterval(() => void this.renew(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  // Before the store closes (TypeORM closes it in its own shutdown hook).
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeat);
    if (this.claim && !this.lost && this.dataSource.isInitialized) {
      try {
        await releaseClaim(this.dataSource, this.claim);
      } catch (error) {
        this.logger.warn({ err: error }, 'could not release the store claim; the next start takes it over once this process is gone');
      }
    }
  }

  /** Whether this service holds the store's claim: it has one, and no other service has taken it over. */
  holdsClaim(): boolean {
    return this.claim !== undefined && !this.lost;
  }

  /** Whether a write of a few pages would succeed now; asked at most once a second. */
  writability(): StoreWritability {
    const now = Date.now();
    if (this.probed && now - this.probed.at < 1_000) return this.probed.result;
    this.probed = { at: now, result: this.probe() };
    return this.probed.result;
  }

  private probe(): StoreWritability {
    const path = this.claim?.databasePath ?? String(this.dataSource.options.database);
    if (this.lost) return { writable: false, reason: 'another weft service has taken this store over' };
    // PostgreSQL keeps its own disk: a write that finds it full is refused as STORE_FULL (isStoreFull).
    if (dialectOf(this.dataSource) === 'postgres') return { writable: true };
    if (diskNearlyFull(path)) return { writable: false, reason: `the disk holding ${path} is full (${freeDiskBytes(path)} bytes free)` };
    const db = sqliteOf(this.dataSource);
    try {
      // Written and rolled back: the pages are asked for, nothing stays.
      db.transaction(() => {
        db.prepare(`INSERT INTO "store_probe" ("payload") VALUES (zeroblob(?))`).run(STORE_HEADROOM_BYTES);
        throw new ProbeDone();
      }).immediate();
    } catch (error) {
      if (error instanceof ProbeDone) return { writable: true };
      if (isStoreFull(error)) return { writable: false, reason: `the store ${path} is full (less than ${STORE_HEADROOM_BYTES >> 20} MB of room left)` };
      return { writable: false, reason: `the store ${path} cannot be written: ${(error as Error).message}` };
    }
    return { writable: true };
  }

  private async renew(): Promise<void> {
    if (!this.claim || this.lost) return;
    try {
      if (await renewClaim(this.dataSource, this.claim)) return;
      this.lost = true;
      this.logger.error(
        `another weft service has taken the store ${storeName(this.claim.databasePath)} over; this one no longer owns it and reports not ready`,
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'could not renew the store claim');
    }
  }
}

class ProbeDone extends Error {}
