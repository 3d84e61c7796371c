import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { databaseOf, dialectOf, storeName } from './dialect';
import {
  announceOwner,
  claimStore,
  DEFAULT_LEASE,
  diskNearlyFull,
  freeDiskBytes,
  isStoreFull,
  LeaseSettings,
  openedAs,
  OwnerRow,
  releaseClaim,
  renewClaim,
  sqliteOf,
  StoreClaim,
} from './store-ownership';

/** The room a ready store has left: a fabric's load or a generation's image takes hundreds of
 * kilobytes, so a store that cannot take one more megabyte is full for every purpose but the smallest
 * writes. */
export const STORE_HEADROOM_BYTES = 1 << 20;
/** How long readiness waits for PostgreSQL to take its probe. */
const PROBE_WAIT_MS = 3_000;

/** How often a standby looks at the lease, per lease period: the takeover comes at most a
 * lease and this fraction of one after the active manager's last renewal. */
const STANDBY_LOOKS_PER_LEASE = 6;

/** The injection token of what a deposed manager does (tests give their own). */
export const STEP_DOWN = Symbol('STEP_DOWN');

export interface StoreWritability {
  writable: boolean;
  /** Why not, in an operator's terms. */
  reason?: string;
}

/** This manager's part: it holds the store (active), waits to take it over (standby), or was
 * taken over while it ran (deposed: it writes nothing more, and stops). */
export type ManagerRole = 'active' | 'standby' | 'deposed';

type Work = () => Promise<void> | void;

/**
 * Keeps this manager's lease on the store — renewed every third of WEFT_LEASE_MS, given up on a
 * clean stop — and answers whether the store can still be written (readiness besides recovery).
 *
 * As a standby (WEFT_STANDBY=on, the store held by another manager) it polls the lease and takes
 * the store over once the active manager has not renewed it for WEFT_LEASE_MS: with a newer term,
 * the fencing token the fabric process checks. What only the active manager does — connecting to
 * the fabric, recovery, automation, pruning — is registered with `whenActive` and runs then, in
 * the order registered (the order of Nest's start-up hooks). An active manager that finds its lease
 * taken, or cannot renew it within the lease, is deposed: with a standby configured it stops (its
 * supervisor starts it again, as the standby); alone, it reports not ready, as before.
 */
@Injectable()
export class StoreOwnerService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Store');
  private claim: StoreClaim | undefined;
  private readonly lease: LeaseSettings;
  private state: ManagerRole;
  private heartbeat?: NodeJS.Timeout;
  private lastRenewed = Date.now();
  private readonly waiting: Work[] = [];
  private url: string | null = null;
  private probed?: { at: number; result: Promise<StoreWritability> };
  /** What PostgreSQL's probe writes: a megabyte that does not compress, made once. */
  private headroom?: Buffer;
  /** The active manager as last seen (standby), for refusals and the `manager` query. */
  private activeOwner: OwnerRow | null;
  private activated: Promise<void> | null = null;
  private stopping = false;
  /** When a standby took over, and how long its start-up work took. */
  takeover: { at: Date; ms: number } | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    /** What a deposed manager with a standby configured does; stops this process by default. */
    @Optional() @Inject(STEP_DOWN) private readonly stepDown: () => void = () => process.kill(process.pid, 'SIGTERM'),
  ) {
    const opened = openedAs(dataSource);
    this.claim = opened?.claim;
    this.lease = opened?.lease ?? DEFAULT_LEASE;
    this.activeOwner = opened?.heldBy ?? null;
    this.state = this.claim || !opened ? 'active' : 'standby';
  }

  onModuleInit(): void {
    if (!this.claim && this.state === 'active') return; // a store opened without the ownership check (tools)
    this.schedule();
  }

  // Before the store closes (TypeORM closes it in its own shutdown hook).
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.heartbeat);
    if (this.claim && this.state === 'active' && this.dataSource.isInitialized) {
      try {
        await releaseClaim(this.dataSource, this.claim);
      } catch (error) {
        this.logger.warn({ err: error }, 'could not release the store claim; the next start takes it over once this process is gone');
      }
    }
  }

  role(): ManagerRole {
    return this.state;
  }

  leaseMs(): number {
    return this.lease.leaseMs;
  }

  /** This manager's term (when it claimed the store), once it holds it. */
  term(): number | undefined {
    return this.claim?.term;
  }

  /** The active manager as this one knows it: itself, or (standby) the one whose lease it watches. */
  activeManager(): { pid: number; host: string; url: string | null; term: number; silentMs: number } | null {
    if (this.state === 'active' && this.claim) return { pid: process.pid, host: hostname(), url: this.url, term: this.claim.term, silentMs: 0 };
    return this.activeOwner && { ...this.activeOwner };
  }

  /** Why this manager refuses a write, or null when it is the active one. */
  refusal(): string | null {
    if (this.state === 'active') return null;
    if (this.state === 'deposed') return 'this manager has been taken over by another and is stopping; send writes to the active manager';
    const owner = this.activeOwner;
    const where = owner ? ` (process ${owner.pid} on ${owner.host}${owner.url ? `, ${owner.url}/graphql` : ''})` : '';
    return `this manager is the standby: it serves reads and takes over if the active manager's lease lapses; send writes to the active manager${where}`;
  }

  /**
   * Runs `work` now if this manager is active (the promise is the work's), or when it takes the
   * store over; works registered while standing by run in the order registered.
   */
  whenActive(work: Work): Promise<void> {
    if (this.state === 'active') return Promise.resolve(work());
    this.waiting.push(work);
    return Promise.resolve();
  }

  /** Records where this manager's API answers (the standby names it when it refuses a write). */
  async announce(url: string): Promise<void> {
    this.url = url;
    if (this.claim && this.state === 'active') await announceOwner(this.dataSource, this.claim, url);
  }

  /** Whether this manager holds the store's claim: it has one, and no other has taken it over. */
  holdsClaim(): boolean {
    return this.claim !== undefined && this.state === 'active';
  }

  /** Resolves once a standby has taken over and finished its start-up work (tests). */
  activation(): Promise<void> | null {
    return this.activated;
  }

  /** Whether a write of a megabyte would succeed now; asked of the store at most once a second. */
  writability(): Promise<StoreWritability> {
    const now = Date.now();
    if (this.probed && now - this.probed.at < 1_000) return this.probed.result;
    this.probed = { at: now, result: this.probe() };
    return this.probed.result;
  }

  private async probe(): Promise<StoreWritability> {
    const path = this.claim?.databasePath ?? databaseOf(this.dataSource);
    if (this.state === 'deposed') return { writable: false, reason: 'another weft service has taken this store over' };
    if (this.state === 'standby') return { writable: false, reason: this.refusal()! };
    if (dialectOf(this.dataSource) === 'postgres') {
      // A store that does not answer is not one to send work to either; readiness does not wait on it.
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<StoreWritability>((resolve) => {
        timer = setTimeout(() => resolve({ writable: false, reason: `the store ${path} did not answer a write within ${PROBE_WAIT_MS} ms` }), PROBE_WAIT_MS);
      });
      return Promise.race([this.probePostgres(path), silent]).finally(() => clearTimeout(timer));
    }
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

  /**
   * PostgreSQL keeps its own disk (issue 54: readiness said ready while it was full): a megabyte
   * that does not compress is written into a table made for the purpose, in a transaction rolled
   * back — a new table's file must grow on the database's disk, where free pages of an existing
   * one need not — and a write refused for want of space (53100) says the store is full.
   */
  private async probePostgres(path: string): Promise<StoreWritability> {
    this.headroom ??= randomBytes(STORE_HEADROOM_BYTES);
    const table = `weft_probe_${randomBytes(6).toString('hex')}`;
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query(`CREATE UNLOGGED TABLE "${table}" ("payload" bytea)`);
      await runner.query(`ALTER TABLE "${table}" ALTER COLUMN "payload" SET STORAGE EXTERNAL`);
      await runner.query(`INSERT INTO "${table}" ("payload") VALUES ($1)`, [this.headroom]);
      return { writable: true };
    } catch (error) {
      if (isStoreFull(error))
        return { writable: false, reason: `the store ${path} is full: its disk has less than ${STORE_HEADROOM_BYTES >> 20} MB of room left` };
      return { writable: false, reason: `the store ${path} cannot be written: ${(error as Error).message}` };
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  }

  /** The next renewal (active) or look at the lease (standby). */
  private schedule(): void {
    if (this.stopping || this.state === 'deposed') return;
    const every = this.state === 'active' ? this.lease.leaseMs / 3 : this.lease.leaseMs / STANDBY_LOOKS_PER_LEASE;
    this.heartbeat = setTimeout(() => void (this.state === 'active' ? this.renew() : this.watch()).finally(() => this.schedule()), every);
    this.heartbeat.unref();
  }

  private async renew(): Promise<void> {
    if (!this.claim) return;
    try {
      if (await renewClaim(this.dataSource, this.claim)) {
        this.lastRenewed = Date.now();
        return;
      }
      this.depose(`another weft service has taken the store ${storeName(this.claim.databasePath)} over`);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not renew the store claim');
      // A standby takes over once the lease lapses: by then this manager must have stopped acting.
      if (this.lease.standby && Date.now() - this.lastRenewed > this.lease.leaseMs) {
        this.depose(`the store's lease could not be renewed for ${this.lease.leaseMs} ms (a standby may have taken over)`);
      }
    }
  }

  /** Told from elsewhere that another manager has taken the store over (the fabric process let this one go for a newer claim). */
  takenOver(why: string): void {
    if (this.state !== 'active' || this.stopping) return;
    this.depose(`${why}: another weft service has taken the store ${storeName(this.claim?.databasePath ?? databaseOf(this.dataSource))} over`);
  }

  private depose(why: string): void {
    this.state = 'deposed';
    if (!this.lease.standby) {
      this.logger.error(`${why}; this one no longer owns it and reports not ready`);
      return;
    }
    this.logger.error(`${why}; this manager stops, and its supervisor starts it again as the standby`);
    this.stepDown();
  }

  /** A standby's look at the lease: takes the store over once it has lapsed. */
  private async watch(): Promise<void> {
    const databasePath = databaseOf(this.dataSource);
    let outcome: StoreClaim | OwnerRow;
    try {
      outcome = await claimStore(this.dataSource, databasePath, this.lease, 'as standby');
    } catch (error) {
      this.logger.warn({ err: error }, 'could not look at the active manager’s lease');
      return;
    }
    if (!('databasePath' in outcome)) {
      this.activeOwner = outcome;
      return;
    }
    const began = performance.now();
    this.claim = outcome;
    this.lastRenewed = Date.now();
    this.state = 'active';
    this.logger.warn(`the active manager's lease lapsed: this standby takes the store over (term ${outcome.term})`);
    // Not awaited: the lease is renewed meanwhile, however long the start-up work takes.
    this.activated = (async () => {
      if (this.url) await announceOwner(this.dataSource, outcome, this.url);
      for (const work of this.waiting.splice(0)) await work();
      const ms = Math.round(performance.now() - began);
      this.takeover = { at: new Date(), ms };
      this.logger.warn(`took over as the active manager in ${ms} ms: fabrics attached, interrupted pushes being finished by read-back`);
    })().catch(async (error: unknown) => {
      // Holding the lease without the fabric or the automation would leave the pair without a
      // working manager: the lease is given up for the other to take, and this one stops — unless
      // it failed because this service is being stopped anyway (its parts closing under it), which
      // the stop says within the second.
      this.state = 'deposed';
      await releaseClaim(this.dataSource, outcome).catch(() => undefined);
      setTimeout(() => {
        if (this.stopping) return;
        this.logger.error({ err: error }, 'taking over failed; the store is released and this manager stops');
        this.stepDown();
      }, 1_000).unref();
    });
  }
}

class ProbeDone extends Error {}
