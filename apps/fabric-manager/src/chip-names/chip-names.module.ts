import { Global, Module } from '@nestjs/common';
import { ChipNamesService } from './chip-names.service';

/** One ChipNamesService for the whole service: the control plane writes it, the rest read it. */
@Global()
@Module({ providers: [ChipNamesService], exports: [ChipNamesService] })
export class ChipNamesModule {}
