import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { Fabric } from '../fabrics/fabric.entity';
import { EmulatorService } from './emulator.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Fabric]), EventsModule],
  providers: [EmulatorService],
  exports: [EmulatorService],
})
export class EmulatorModule {}
