import { RoutingSettings } from './routing-settings.entity';
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
import { Anton2RoutingResolver } from './anton2-routing.resolver';
import { AnalysisService } from './analysis.service';
import { ControlResolver } from './control.resolver';
import { CostReportResolver } from './cost-report.resolver';
import { FlatRoutingResolver } from './flat-routing.resolver';
import { ControlService } from './control.service';
import { ConfigGenerationFieldsResolver, GenerationsResolver } from './generations.resolver';

@Module({
  imports: [TypeOrmModule.forFeature([ConfigGeneration, PushRecord, Fabric, RoutingSettings]), FabricsModule, EventsModule, FaultsModule],
  providers: [
    ControlService,
    GenerationImages,
    AnalysisService,
    AnalysisResolver,
    ControlResolver,
    GenerationsResolver,
    ConfigGenerationFieldsResolver,
    Anton2RoutingResolver,
    CostReportResolver,
    FlatRoutingResolver,
  ],
  exports: [ControlService, GenerationImages, AnalysisService],
})
export class ControlModule {}
