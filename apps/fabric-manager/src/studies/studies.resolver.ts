import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RequiresRole } from '../auth/roles.decorator';
import { FabricIdInput } from '../control/dto/fabric-id.input';
import { OperationCost } from '../graphql/operation-cost';
import { StartSweepInput, StudyModel } from './dto/study.dto';
import { StudiesService, StudyView } from './studies.service';

@Resolver(() => StudyModel)
@UseGuards(ApiKeyGuard)
export class StudiesResolver {
  constructor(private readonly service: StudiesService) {}

  @Mutation(() => StudyModel, {
    description:
      'Starts a latency–load sweep: a point per load, put on the job queue for `weft worker` processes (or done by this manager where no queue is configured), each on a fabric of its own configured with the last pushed generation; poll study for progress and the report (operator).',
    complexity: OperationCost.fabricWork,
  })
  @RequiresRole(Role.operator)
  startSweep(@Args('input') input: StartSweepInput): Promise<StudyView> {
    return this.service.startSweep(input);
  }

  @Query(() => StudyModel, { description: 'A study: its points, who did each, and its report over the points done.' })
  study(@Args('id', { type: () => ID }) id: string): Promise<StudyView> {
    return this.service.get(Number(id));
  }

  @Query(() => [StudyModel], { description: 'Studies of a fabric, oldest first.' })
  studies(@Args('input') input: FabricIdInput): Promise<StudyView[]> {
    return this.service.list(input.fabricId);
  }
}
