import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module';
import { InterruptRecorder } from '../events/interrupt-recorder.service';
import { Fabric } from '../fabrics/fabric.entity';
import { FabricTransports } from '../transport/fabric-transports';
import { EmulatorService } from './emulator.service';

/** The built-in emulated fabrics, the transports they provide, and the recorder of their interrupts. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Fabric]), EventsModule],
  providers: [EmulatorService, { provide: FabricTransports, useExisting: EmulatorService }, InterruptRecorder],
  exports: [EmulatorService, FabricTransports, InterruptRecorder],
})
export class EmulatorModule {}
