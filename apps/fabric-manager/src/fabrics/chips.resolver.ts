import { UseGuards } from '@nestjs/common';
import { Args, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { GraphQLJSONObject } from '../graphql/json.scalar';
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

  @ResolveField(() => GraphQLJSONObject, { description: "Where it sits in its fabric, in its family's terms (BlackWidow: slice and rank)." })
  placement(@Parent() chip: Chip): Record<string, number> {
    return placementOf(chip);
  }

  @ResolveField(() => Int, {
    nullable: true,
    description: 'BlackWidow: the network slice; -1 for endpoints, which span every slice (null where the family has none).',
  })
  slice(@Parent() chip: Chip): number | null {
    return placementOf(chip).slice ?? null;
  }

  @ResolveField(() => Int, { nullable: true, description: 'BlackWidow: the rank in the Clos (1–3); 0 for endpoints (null where the family has none).' })
  rank(@Parent() chip: Chip): number | null {
    return placementOf(chip).rank ?? null;
  }

  @ResolveField(() => PortConnection)
  ports(@Parent() chip: Chip, @Args() page: PageArgs): Promise<Connection<Port>> {
    return this.fabrics.portPage(chip.id, page.first, page.after);
  }
}

const placementOf = (chip: Chip): Record<string, number> => JSON.parse(chip.placement) as Record<string, number>;
