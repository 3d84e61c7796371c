import { UseGuards } from '@nestjs/common';
import { Args, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { Connection, PageArgs } from '../graphql/pagination';
import { Chip } from './chip.entity';
import { ChipModel } from './dto/chip.model';
import { PortConnection } from './dto/port.model';
import { FabricsService } from './fabrics.service';
import { Port } from './port.entity';

@Resolver(() => ChipModel)
@UseGuards(ApiKeyGuard)
export class ChipsResolver {
  constructor(private readonly fabrics: FabricsService) {}

  @ResolveField(() => PortConnection)
  ports(@Parent() chip: Chip, @Args() page: PageArgs): Promise<Connection<Port>> {
    return this.fabrics.portPage(chip.id, page.first, page.after);
  }
}
