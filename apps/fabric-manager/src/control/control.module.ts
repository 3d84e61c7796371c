import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { PushRecord } from '../config-generations/push-record.entity';
import { Fabric } from '../fabrics/fabric.entity';
import { EventsModule } from '../events/events.module';
import { FabricsModule } from '../fabrics/fabrics.module';
import { FaultsModule } from '../faults/faults.module';
import { GenerationImages } from '../config-generations/generation-images.service';
import { AnalysisResolver } from './analysis.resolver';
import { AnalysisService } from './analysis.service';
import { ControlResolver } from './control.resolver';
import { ControlService } from './control.service';
import { ConfigGenerationFieldsResolver, GenerationsResolver } from './generations.resolver';

@Module({
  imports: [TypeOrmModule.forFeature([ConfigGeneration, PushRecord, Fabric]), FabricsModule, EventsModule, FaultsModule],
  providers: [ControlService, GenerationImages, AnalysisService, AnalysisResolver, ControlResolver, GenerationsResolver, ConfigGenerationFieldsResolver],
  exports: [ControlService, GenerationImages],
})
export class ControlModule {}
