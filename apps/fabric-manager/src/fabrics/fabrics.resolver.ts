import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RequiresRole } from '../auth/roles.decorator';
import { Connection, PageArgs } from '../graphql/pagination';
import { Chip } from './chip.entity';
import { ChipArgs, ChipPageArgs, FabricArgs } from './dto/fabric.args';
import { ChipConnection, ChipModel } from './dto/chip.model';
import { DeleteFabricInput } from './dto/delete-fabric.input';
import { FabricConnection, FabricModel } from './dto/fabric.model';
import { LinkConnection } from './dto/link.model';
import { LoadFabricInput } from './dto/load-fabric.input';
import { Fabric } from './fabric.entity';
import { FabricsService } from './fabrics.service';
import { Link } from './link.entity';
import { OperationCost } from '../graphql/operation-cost';

@Resolver(() => FabricModel)
@UseGuards(ApiKeyGuard)
export class FabricsResolver {
  constructor(private readonly fabricsService: FabricsService) {}

  @Query(() => FabricConnection)
  fabrics(@Args() page: PageArgs): Promise<Connection<Fabric>> {
    return this.fabricsService.page(page.first, page.after);
  }

  @Query(() => FabricModel)
  fabric(@Args() args: FabricArgs): Promise<Fabric> {
    return this.fabricsService.get(args.id);
  }

  @Query(() => ChipModel, { description: 'One chip of a fabric, by name.' })
  chip(@Args() args: ChipArgs): Promise<Chip> {
    return this.fabricsService.chipByName(args.fabricId, args.name);
  }

  @ResolveField(() => ChipConnection)
  chips(@Parent() fabric: Fabric, @Args() args: ChipPageArgs): Promise<Connection<Chip>> {
    const placement: Record<string, number> = {};
    if (args.slice !== undefined) placement.slice = args.slice;
    if (args.rank !== undefined) placement.rank = args.rank;
    return this.fabricsService.chipPage(fabric.id, { kind: args.kind, placement }, args.first, args.after);
  }

  @ResolveField(() => LinkConnection)
  links(@Parent() fabric: Fabric, @Args() page: PageArgs): Promise<Connection<Link>> {
    return this.fabricsService.linkPage(fabric.id, page.first, page.after);
  }

  @Mutation(() => FabricModel, {
    description: 'Loads an installation (fixture or inline JSON) as a new fabric and powers it up in the emulator (operator).',
    complexity: OperationCost.fabricWork,
  })
  @RequiresRole(Role.operator)
  loadFabric(@Args('input') input: LoadFabricInput): Promise<Fabric> {
    const installation = this.fabricsService.readInstallation({ fixture: input.fixture, installation: input.installation });
    return this.fabricsService.load(installation, input.name);
  }

  @Mutation(() => FabricModel, { description: 'Deletes a fabric and everything stored about it (operator).' })
  @RequiresRole(Role.operator)
  deleteFabric(@Args('input') input: DeleteFabricInput): Promise<Fabric> {
    return this.fabricsService.delete(input.id);
  }
}
