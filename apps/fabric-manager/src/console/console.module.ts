import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { FabricsModule } from '../fabrics/fabrics.module';
import { FaultsModule } from '../faults/faults.module';
import { FabricPictureResolver } from './fabric-picture.resolver';
import { FabricPictureService } from './fabric-picture.service';

/** What the admin console needs of the API beyond the rest of it: the fabric picture. */
@Module({
  imports: [FabricsModule, FaultsModule, EventsModule],
  providers: [FabricPictureService, FabricPictureResolver],
})
export class ConsoleModule {}
