import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RequiresRole } from '../auth/roles.decorator';
import { FabricIdInput } from '../control/dto/fabric-id.input';
import { StartTrafficRunInput, TrafficRunModel } from './dto/traffic-run.dto';
import { TrafficRun } from './traffic-run.entity';
import { TrafficService } from './traffic.service';
import { OperationCost } from '../graphql/operation-cost';

@Resolver(() => TrafficRunModel)
@UseGuards(ApiKeyGuard)
export class TrafficResolver {
  constructor(private readonly traffic: TrafficService) {}

  @Mutation(() => TrafficRunModel, {
    description: 'Starts a traffic run on an emulated fabric; poll trafficRun for its report (operator).',
    complexity: OperationCost.fabricWork,
  })
  @RequiresRole(Role.operator)
  startTrafficRun(@Args('input') input: StartTrafficRunInput): Promise<TrafficRun> {
    return this.traffic.start(input);
  }

  @Query(() => TrafficRunModel, { description: 'A traffic run and, once it has finished, its report.' })
  trafficRun(@Args('id', { type: () => ID }) id: string): Promise<TrafficRun> {
    return this.traffic.get(Number(id));
  }

  @Query(() => [TrafficRunModel], { description: 'Traffic runs on a fabric, oldest first.' })
  trafficRuns(@Args('input') input: FabricIdInput): Promise<TrafficRun[]> {
    return this.traffic.list(input.fabricId);
  }
}
