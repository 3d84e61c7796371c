import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { EmulatorHealthIndicator } from './emulator.health';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [EmulatorHealthIndicator],
})
export class HealthModule {}
