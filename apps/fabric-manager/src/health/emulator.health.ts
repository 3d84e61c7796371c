import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { EmulatorService } from '../emulator/emulator.service';

@Injectable()
export class EmulatorHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly emulator: EmulatorService,
  ) {}

  isRunning() {
    const indicator = this.indicators.check('emulator');
    return this.emulator.isRunning() ? indicator.up(this.emulator.status()) : indicator.down({ message: this.emulator.notRunningReason() });
  }
}
