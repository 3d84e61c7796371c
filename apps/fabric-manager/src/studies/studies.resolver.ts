import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RequiresRole } from '../auth/roles.decorator';
import { OperationCost } from '../graphql/operation-cost';
import { StartChannelLoadStudyInput, StartDrillCampaignInput, StartSweepInput, StudiesInput, StudyModel } from './dto/study.dto';
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

  @Mutation(() => StudyModel, {
    description:
      "Starts a channel-load study: the pattern's expected channel loads under the configuration in force, a point per seed of its random draws, done as a sweep's points are (operator).",
    complexity: OperationCost.fabricWork,
  })
  @RequiresRole(Role.operator)
  startChannelLoadStudy(@Args('input') input: StartChannelLoadStudyInput): Promise<StudyView> {
    return this.service.startChannelLoadStudy(input);
  }

  @Mutation(() => StudyModel, {
    description:
      'Starts a drill campaign: the drill run once per seed, each run a point done by a worker in a manager of its own (in memory, its own emulated fabric); the report counts verdicts and heal times (operator).',
    complexity: OperationCost.fabricWork,
  })
  @RequiresRole(Role.operator)
  startDrillCampaign(@Args('input') input: StartDrillCampaignInput): Promise<StudyView> {
    return this.service.startDrillCampaign(input);
  }

  @Query(() => StudyModel, { description: 'A study: its points, who did each, and its report over the points done.' })
  study(@Args('id', { type: () => ID }) id: string): Promise<StudyView> {
    return this.service.get(Number(id));
  }

  @Query(() => [StudyModel], { description: 'Studies, newest first: of one fabric, or of one kind (sweep, channel-load, drill-campaign), or all.' })
  studies(@Args('input', { nullable: true }) input?: StudiesInput): Promise<StudyView[]> {
    return this.service.list(input ?? {});
  }
}
