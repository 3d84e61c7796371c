import { UseGuards } from '@nestjs/common';
import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CableEndModel, LinkModel } from './dto/link.model';
import { FabricsService } from './fabrics.service';
import { Link } from './link.entity';

@Resolver(() => LinkModel)
@UseGuards(ApiKeyGuard)
export class LinksResolver {
  constructor(private readonly fabrics: FabricsService) {}

  @ResolveField(() => CableEndModel)
  async a(@Parent() link: Link): Promise<CableEndModel> {
    return { chip: (await this.fabrics.chipById(link.aChipId)).name, port: link.aPort };
  }

  @ResolveField(() => CableEndModel)
  async b(@Parent() link: Link): Promise<CableEndModel> {
    return { chip: (await this.fabrics.chipById(link.bChipId)).name, port: link.bPort };
  }
}
