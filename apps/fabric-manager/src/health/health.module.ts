import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ControlModule } from '../control/control.module';
import { EmulatorHealthIndicator } from './emulator.health';
import { HealthController } from './health.controller';
import { ManagerResolver } from './manager.resolver';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), ControlModule],
  controllers: [HealthController],
  providers: [EmulatorHealthIndicator, ManagerResolver],
})
export class HealthModule {}
