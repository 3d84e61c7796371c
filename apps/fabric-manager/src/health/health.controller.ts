import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { EmulatorHealthIndicator } from './emulator.health';

/** Readiness: the store answers and the emulated fabric runs. Open to all (no key), like any probe. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly emulator: EmulatorHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.database.pingCheck('database').withTimeout(1500), () => this.emulator.isRunning()]);
  }
}
