import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AutomationModule } from '../automation/automation.module';
import { ControlModule } from '../control/control.module';
import { EventsModule } from '../events/events.module';
import { FabricEvent } from '../events/fabric-event.entity';
import { FabricsModule } from '../fabrics/fabrics.module';
import { FaultsModule } from '../faults/faults.module';
import { Drill } from './drill.entity';
import { DrillRun } from './drill-run.entity';
import { DrillRunnerService } from './drill-runner.service';
import { DrillsResolver } from './drills.resolver';

@Module({
  imports: [TypeOrmModule.forFeature([Drill, DrillRun, FabricEvent]), FabricsModule, ControlModule, AutomationModule, FaultsModule, EventsModule],
  providers: [DrillRunnerService, DrillsResolver],
  exports: [DrillRunnerService],
})
export class DrillsModule {}
