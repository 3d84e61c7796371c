import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { FabricsModule } from '../fabrics/fabrics.module';
import { Fault } from './fault.entity';
import { FaultsResolver } from './faults.resolver';
import { FaultsService } from './faults.service';

@Module({
  imports: [TypeOrmModule.forFeature([Fault]), FabricsModule, EventsModule],
  providers: [FaultsService, FaultsResolver],
  exports: [FaultsService],
})
export class FaultsModule {}
