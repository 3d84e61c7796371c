import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { ControlService } from '../control/control.service';
import { StoreOwnerService } from '../database/store-owner.service';
import { EmulatorHealthIndicator } from './emulator.health';

/**
 * Probes, open to all (no key), like any probe:
 * - `/health/live`: the process answers (restart it when this fails);
 * - `/health/ready` (and `/health`): it can do its job — the start-up recovery of interrupted pushes
 *   has finished, the store can be written, and the emulated fabric runs (send it work when this
 *   holds). A standby manager (WEFT_STANDBY) is live and not ready until it takes over. A full store leaves the service live, serving reads, and not ready.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly emulator: EmulatorHealthIndicator,
    private readonly store: StoreOwnerService,
    private readonly control: ControlService,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get()
  @HealthCheck()
  check() {
    return this.ready();
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => {
        // A standby is live and serves reads, but it is not the manager to send work to.
        const indicator = this.indicators.check('manager');
        const refusal = this.store.refusal();
        return refusal === null ? indicator.up({ role: 'active' }) : indicator.down({ role: this.store.role(), message: refusal });
      },
      () => {
        const indicator = this.indicators.check('recovery');
        return this.control.recoveryDone
          ? indicator.up(this.control.readingBack > 0 ? { readingBack: this.control.readingBack } : {})
          : indicator.down({ message: 'reading the fabric back to finish pushes cut off by the last stop or a lost fabric' });
      },
      async () => {
        const indicator = this.indicators.check('store');
        const { writable, reason } = await this.store.writability();
        return writable ? indicator.up() : indicator.down({ message: reason });
      },
      () => this.emulator.isRunning(),
    ]);
  }
}
