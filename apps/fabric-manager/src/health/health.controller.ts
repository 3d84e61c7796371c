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
 *   holds). A full store leaves the service live, serving reads, and not ready.
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
        const indicator = this.indicators.check('recovery');
        return this.control.recoveryDone ? indicator.up() : indicator.down({ message: 'finishing pushes interrupted by the last stop' });
      },
      () => {
        const indicator = this.indicators.check('store');
        const { writable, reason } = this.store.writability();
        return writable ? indicator.up() : indicator.down({ message: reason });
      },
      () => this.emulator.isRunning(),
    ]);
  }
}
