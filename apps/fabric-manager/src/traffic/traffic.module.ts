import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FabricsModule } from '../fabrics/fabrics.module';
import { TrafficRun } from './traffic-run.entity';
import { TrafficResolver } from './traffic.resolver';
import { TrafficService } from './traffic.service';

@Module({
  imports: [TypeOrmModule.forFeature([TrafficRun]), FabricsModule],
  providers: [TrafficService, TrafficResolver],
  exports: [TrafficService],
})
export class TrafficModule {}
