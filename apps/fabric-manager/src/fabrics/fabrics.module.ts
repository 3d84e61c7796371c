import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { Chip } from './chip.entity';
import { ChipsResolver } from './chips.resolver';
import { Fabric } from './fabric.entity';
import { FabricsResolver } from './fabrics.resolver';
import { FabricsService } from './fabrics.service';
import { Link } from './link.entity';
import { LinksResolver } from './links.resolver';
import { Port } from './port.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Fabric, Chip, Port, Link]), EventsModule],
  providers: [FabricsService, FabricsResolver, ChipsResolver, LinksResolver],
  exports: [FabricsService],
})
export class FabricsModule {}
