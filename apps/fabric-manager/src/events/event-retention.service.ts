import { Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { StoreOwnerService } from '../database/store-owner.service';
import { WeftConfig } from '../config/weft-config';
import { EventsService } from './events.service';

/** Prunes old events on a schedule, so that a long drill cannot fill the disk (issue 5). */
@Injectable()
export class EventRetentionService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(EventRetentionService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly config: WeftConfig,
    private readonly events: EventsService,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  /** The active manager prunes; a standby once it takes over. */
  onModuleInit(): void {
    if (this.owner) void this.owner.whenActive(() => this.schedule());
    else this.schedule();
  }

  private schedule(): void {
    this.timer = setInterval(() => void this.pruneNow(), this.config.WEFT_EVENT_PRUNE_INTERVAL_S * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pruning pass (never two at once). */
  pruneNow(): Promise<void> {
    this.running ??= (async () => {
      try {
        const deleted = await this.events.prune({
          maxAgeMs: this.config.WEFT_EVENT_RETENTION_DAYS * 24 * 3600 * 1000,
          maxEvents: this.config.WEFT_EVENT_RETENTION_MAX,
        });
        if (deleted > 0) this.logger.log(`pruned ${deleted} events beyond the retention`);
      } catch (error) {
        this.logger.error(`pruning events failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
