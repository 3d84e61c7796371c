import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FabricEvent } from './fabric-event.entity';
import { EventsResolver } from './events.resolver';
import { EventRetentionService } from './event-retention.service';
import { EventsService } from './events.service';

@Module({
  imports: [TypeOrmModule.forFeature([FabricEvent])],
  providers: [EventsService, EventsResolver, EventRetentionService],
  exports: [EventsService],
})
export class EventsModule {}
