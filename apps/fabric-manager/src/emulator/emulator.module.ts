import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Fabric } from '../fabrics/fabric.entity';
import { EmulatorService } from './emulator.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Fabric])],
  providers: [EmulatorService],
  exports: [EmulatorService],
})
export class EmulatorModule {}
