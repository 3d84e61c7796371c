import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, In, IsNull, MoreThan, Not, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Connection, decodeCursor, encodeCursor, toConnection } from '../graphql/pagination';
import { dialectOf, placeholder } from '../database/dialect';
import { EventBus } from './event-bus';
import { EventsErrorCode, EventsException } from './events.exception';
import { FabricEvent } from './fabric-event.entity';
import { FabricEventKind } from './fabric-event-kind';

export interface NewFabricEvent {
  fabricId: number | null;
  kind: FabricEventKind;
  emulatedTimeNs?: number | null;
  chip?: string | null;
  port?: number | null;
  vc?: number | null;
  lane?: number | null;
  details?: Record<string, unknown>;
}

export interface EventFilter {
  fabricId?: number;
  kinds?: FabricEventKind[];
  chips?: string[];
  /** true: only unacknowledged events; false: only acknowledged ones (stored pages only). */
  unacknowledged?: boolean | null;
}

const REPLAY_PAGE = 500;

/** How often the feed looks for events committed by another manager (the active one, or one just deposed). */
const FOLLOW_MS = 250;

/**
 * The PostgreSQL advisory lock an event is inserted under, held until its transaction ends: ids
 * are then handed out in commit order, so that reading the store by id never passes over an event
 * that commits later with a smaller id (a sequence alone hands ids out at insert, not at commit).
 * On SQLite one writer at a time holds the file, which orders them the same way.
 */
const EVENT_ORDER_LOCK = 0x77656674; // "weft"

/**
 * Stores events and publishes them in commit order: every event reaches live subscribers and
 * listeners exactly once and in id order, because the one feed that publishes reads them back from
 * the store by id (issue 54: publishing each as its own write returned let a later id overtake an
 * earlier one still committing, and subscribers drop what is at or below their cursor). The same
 * feed follows what another manager stores, so a standby's subscribers hear the active's events.
 */
@Injectable()
export class EventsService implements OnModuleInit, OnModuleDestroy {
  private readonly bus = new EventBus<FabricEvent>();
  private readonly open = new Set<{ close(): void }>();
  private readonly listeners: ((event: FabricEvent) => void)[] = [];
  /** Subscribers still replaying stored events, with the id of the last event each has been given. */
  private readonly replaying = new Map<object, () => number>();
  /** The feed: the last id published, whether another look is wanted, the look under way, its timer. */
  private feed: { lastId: number; again: boolean; running: Promise<void> | null; timer: NodeJS.Timeout | null } | null = null;
  private starting: Promise<void> | null = null;

  constructor(@InjectRepository(FabricEvent) private readonly events: Repository<FabricEvent>) {}

  /** The feed starts after what the store holds now; it looks again whenever an event is committed here, and every FOLLOW_MS for other managers' events. */
  onModuleInit(): Promise<void> {
    this.starting ??= (async () => {
      const [{ last }] = (await this.events.query(`SELECT MAX("id") AS "last" FROM "fabric_event"`)) as { last: number | string | null }[];
      const timer = setInterval(() => void this.pump(), FOLLOW_MS);
      timer.unref();
      this.feed = { lastId: Number(last ?? 0), again: false, running: null, timer };
    })();
    return this.starting;
  }

  /** Publishes every event committed since the last look, in id order; resolves once a look begun after the call has ended. */
  private pump(): Promise<void> {
    const feed = this.feed;
    if (!feed) return Promise.resolve();
    feed.again = true;
    feed.running ??= (async () => {
      try {
        while (feed.again) {
          feed.again = false;
          for (;;) {
            const rows = await this.events.find({ where: { id: MoreThan(feed.lastId) }, order: { id: 'ASC' }, take: REPLAY_PAGE });
            for (const row of rows) {
              feed.lastId = row.id;
              this.publish(row);
            }
            if (rows.length < REPLAY_PAGE) break;
          }
        }
      } catch {
        // The store did not answer this time: the next look catches up from the same id.
      } finally {
        feed.running = null;
      }
    })();
    return feed.running;
  }

  /** Stores an event and publishes it (with any committed before it not yet published). */
  async record(event: NewFabricEvent): Promise<FabricEvent> {
    const stored = await this.store(event);
    await this.pump();
    return stored;
  }

  /**
   * Stores events that arrived together in one statement, in order, and publishes them (issue 55:
   * a dead ASIC's twelve link-down interrupts were twelve inserts and twelve looks of the feed on a
   * reaction's path).
   */
  async recordMany(events: readonly NewFabricEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.onModuleInit();
    const insert = async (manager: EntityManager) => {
      if (dialectOf(manager) === 'postgres') await manager.query(`SELECT pg_advisory_xact_lock(${EVENT_ORDER_LOCK})`);
      await manager
        .createQueryBuilder()
        .insert()
        .into(FabricEvent)
        // A JSON column's value is its object (TypeORM's partial-entity type cannot say so).
        .values(events.map((event) => this.row(event)) as QueryDeepPartialEntity<FabricEvent>[])
        .updateEntity(false)
        .execute();
    };
    await (dialectOf(this.events.manager) === 'postgres' ? this.events.manager.transaction(insert) : insert(this.events.manager));
    await this.pump();
  }

  /**
   * Stores an event without publishing it, in the caller's transaction when one is given: the
   * caller calls `committed` once the transaction has committed, so that no subscriber hears of
   * what a failed operation did not do. On PostgreSQL the event holds the store's event-order lock
   * until that transaction ends: store it as the transaction's last statement.
   */
  async store(event: NewFabricEvent, manager?: EntityManager): Promise<FabricEvent> {
    await this.onModuleInit();
    if (manager) return this.insert(event, manager);
    return dialectOf(this.events.manager) === 'postgres'
      ? this.events.manager.transaction((m) => this.insert(event, m))
      : this.insert(event, this.events.manager);
  }

  private async insert(event: NewFabricEvent, manager: EntityManager): Promise<FabricEvent> {
    if (dialectOf(manager) === 'postgres') await manager.query(`SELECT pg_advisory_xact_lock(${EVENT_ORDER_LOCK})`);
    const repository = manager.getRepository(FabricEvent);
    return repository.save(repository.create(this.row(event)));
  }

  /** A new event as its row holds it. */
  private row(event: NewFabricEvent) {
    return {
      fabricId: event.fabricId,
      kind: event.kind,
      emulatedTimeNs: event.emulatedTimeNs ?? null,
      chip: event.chip ?? null,
      port: event.port ?? null,
      vc: event.vc ?? null,
      lane: event.lane ?? null,
      details: event.details ?? {},
      acknowledgedBy: null,
      acknowledgedAt: null,
      acknowledgementNote: null,
    };
  }

  /** Says that a transaction which stored events has committed: resolves once they are published. */
  committed(): Promise<void> {
    return this.pump();
  }

  /** Publishes a stored event to live subscribers and listeners: the feed's, in id order. */
  private publish(stored: FabricEvent): void {
    this.bus.publish(stored);
    for (const listener of this.listeners) listener(stored);
  }

  /** Calls `listener` with every event as it is published (the metrics count them). */
  listen(listener: (event: FabricEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Records who acknowledged an event, when, and what they did; an event is acknowledged once. */
  async acknowledge(id: number, by: string, note: string | null): Promise<FabricEvent> {
    const event = await this.events.findOne({ where: { id } });
    if (!event) throw new EventsException(EventsErrorCode.EventNotFound, `no event with id ${id}`);
    if (event.acknowledgedAt) {
      throw new EventsException(
        EventsErrorCode.AlreadyAcknowledged,
        `event ${id} was already acknowledged by ${event.acknowledgedBy} at ${event.acknowledgedAt.toISOString()}`,
      );
    }
    event.acknowledgedBy = by;
    event.acknowledgedAt = new Date();
    event.acknowledgementNote = note;
    return this.events.save(event);
  }

  async page(filter: EventFilter, first: number, after?: string): Promise<Connection<FabricEvent>> {
    const where = this.where(filter, decodeCursor(after));
    const [rows, total] = await Promise.all([
      this.events.find({ where, order: { id: 'ASC' }, take: first + 1 }),
      this.events.count({ where: this.where(filter, 0) }),
    ]);
    return toConnection(rows, first, total);
  }

  /**
   * Every matching event after the cursor, stored ones first and then live ones, each exactly
   * once and in id order: live events are buffered from the moment of the call, so none slips
   * between the end of the replay and the start of the live stream.
   */
  subscribe(filter: EventFilter, after?: string): AsyncIterableIterator<FabricEvent> {
    let cursor = decodeCursor(after);
    const live = this.bus.subscribe();
    const matches = (e: FabricEvent) =>
      (filter.fabricId === undefined || e.fabricId === filter.fabricId) &&
      (!filter.kinds?.length || filter.kinds.includes(e.kind as FabricEventKind)) &&
      (!filter.chips?.length || (e.chip !== null && filter.chips.includes(e.chip)));
    const backlog: FabricEvent[] = [];
    let replaying = true;
    let checked = after === undefined;
    const handle = { close: () => live.close() };
    this.open.add(handle);
    // Pruning never removes what a replaying subscriber has not been given yet.
    this.replaying.set(handle, () => cursor);

    const next = async (): Promise<IteratorResult<FabricEvent>> => {
      if (!checked) {
        checked = true;
        await this.assertNotPruned(cursor);
      }
      while (replaying) {
        if (backlog.length === 0) {
          const rows = await this.events.find({ where: this.where(filter, cursor), order: { id: 'ASC' }, take: REPLAY_PAGE });
          if (rows.length === 0) {
            replaying = false;
            this.replaying.delete(handle);
            break;
          }
          backlog.push(...rows);
        }
        const event = backlog.shift()!;
        cursor = event.id;
        return { value: event, done: false };
      }
      for (;;) {
        const result = await live.next();
        if (result.done) return result;
        if (result.value.id > cursor && matches(result.value)) {
          cursor = result.value.id;
          return result;
        }
      }
    };
    const iterator: AsyncIterableIterator<FabricEvent> = {
      next,
      return: async () => {
        live.close();
        this.open.delete(handle);
        this.replaying.delete(handle);
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /** A subscriber resuming from a cursor whose following events were pruned is told so, not silently skipped ahead. */
  private async assertNotPruned(cursor: number): Promise<void> {
    const [{ oldest }] = (await this.events.query(`SELECT MIN("id") AS "oldest" FROM "fabric_event"`)) as { oldest: number | null }[];
    // With every event pruned, the id the next one gets: the table's sequence.
    const [sequence] = (await this.events.query(
      dialectOf(this.events.manager) === 'postgres'
        ? `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS "seq" FROM "fabric_event_id_seq"`
        : `SELECT "seq" FROM "sqlite_sequence" WHERE "name" = 'fabric_event'`,
    )) as { seq: number | string }[];
    const firstKept = oldest ?? Number(sequence?.seq ?? 0) + 1;
    if (cursor + 1 < firstKept) {
      throw new EventsException(
        EventsErrorCode.CursorPruned,
        `the events after cursor ${encodeCursor(cursor)} were pruned by the retention policy; the oldest kept event is id ${firstKept}`,
      );
    }
  }

  /**
   * Deletes the oldest events beyond the retention — older than `maxAgeMs`, or more than
   * `maxEvents` — in batches (the API stays responsive), but never one a replaying subscriber has
   * not been given yet. Returns how many were deleted.
   */
  async prune(retention: { maxAgeMs: number; maxEvents: number }, now = Date.now(), batch = 5_000): Promise<number> {
    const [{ newest }] = (await this.events.query(`SELECT MAX("id") AS "newest" FROM "fabric_event"`)) as { newest: number | null }[];
    if (newest === null) return 0;
    const cutoffTime = new Date(now - retention.maxAgeMs).toISOString().replace('T', ' ').slice(0, 19);
    const [{ aged }] = (await this.events.query(
      `SELECT MAX("id") AS "aged" FROM "fabric_event" WHERE "wallTime" < ${placeholder(dialectOf(this.events.manager), 1)}`,
      [cutoffTime],
    )) as {
      aged: number | null;
    }[];
    let through = Math.max(newest - retention.maxEvents, aged ?? 0);
    for (const position of this.replaying.values()) through = Math.min(through, position());
    let deleted = 0;
    for (;;) {
      const result = await this.events
        .createQueryBuilder()
        .delete()
        .where(`"id" IN (SELECT "id" FROM "fabric_event" WHERE "id" <= :through ORDER BY "id" LIMIT :batch)`, { through, batch })
        .execute();
      const changes = result.affected ?? 0;
      deleted += changes;
      if (changes < batch) return deleted;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  get liveSubscribers(): number {
    return this.bus.subscriberCount;
  }

  onModuleDestroy(): void {
    if (this.feed?.timer) clearInterval(this.feed.timer);
    if (this.feed) this.feed.timer = null;
    for (const handle of this.open) handle.close();
    this.open.clear();
  }

  private where(filter: EventFilter, afterId: number): FindOptionsWhere<FabricEvent> {
    const where: FindOptionsWhere<FabricEvent> = { id: MoreThan(afterId) };
    if (filter.fabricId !== undefined) where.fabricId = filter.fabricId;
    if (filter.kinds?.length) where.kind = In(filter.kinds);
    if (filter.chips?.length) where.chip = In(filter.chips);
    // null, as a GraphQL client may send for "not given", filters nothing.
    if (filter.unacknowledged !== undefined && filter.unacknowledged !== null) where.acknowledgedAt = filter.unacknowledged ? IsNull() : Not(IsNull());
    return where;
  }
}
