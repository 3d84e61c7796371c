import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { ControlModule } from '../control/control.module';
import { DrillsModule } from '../drills/drills.module';
import { FabricsModule } from '../fabrics/fabrics.module';
import { StudiesResolver } from './studies.resolver';
import { StudiesService } from './studies.service';
import { StudyPoint } from './study-point.entity';
import { Study } from './study.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Study, StudyPoint, ConfigGeneration]), FabricsModule, ControlModule, DrillsModule],
  providers: [StudiesService, StudiesResolver],
})
export class StudiesModule {}
