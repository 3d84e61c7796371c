import { Module } from '@nestjs/common';
import { FabricsModule } from '../fabrics/fabrics.module';
import { FaultsModule } from '../faults/faults.module';
import { FabricPictureResolver } from './fabric-picture.resolver';

/** What the admin console needs of the API beyond the rest of it: the fabric picture. */
@Module({
  imports: [FabricsModule, FaultsModule],
  providers: [FabricPictureResolver],
})
export class ConsoleModule {}
