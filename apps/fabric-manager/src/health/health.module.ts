import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ControlModule } from '../control/control.module';
import { EmulatorHealthIndicator } from './emulator.health';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), ControlModule],
  controllers: [HealthController],
  providers: [EmulatorHealthIndicator],
})
export class HealthModule {}
