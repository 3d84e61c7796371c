import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { ControlModule } from '../control/control.module';
import { EventsModule } from '../events/events.module';
import { FaultsModule } from '../faults/faults.module';
import { AutomationService } from './automation.service';

@Module({
  imports: [TypeOrmModule.forFeature([ConfigGeneration]), ControlModule, FaultsModule, EventsModule],
  providers: [AutomationService],
  exports: [AutomationService],
})
export class AutomationModule {}
