import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { PushRecord } from '../config-generations/push-record.entity';
import { Fabric } from '../fabrics/fabric.entity';
import { EventsModule } from '../events/events.module';
import { FabricsModule } from '../fabrics/fabrics.module';
import { FaultsModule } from '../faults/faults.module';
import { ControlResolver } from './control.resolver';
import { ControlService } from './control.service';
import { ConfigGenerationFieldsResolver, GenerationsResolver } from './generations.resolver';

@Module({
  imports: [TypeOrmModule.forFeature([ConfigGeneration, PushRecord, Fabric]), FabricsModule, EventsModule, FaultsModule],
  providers: [ControlService, ControlResolver, GenerationsResolver, ConfigGenerationFieldsResolver],
  exports: [ControlService],
})
export class ControlModule {}
