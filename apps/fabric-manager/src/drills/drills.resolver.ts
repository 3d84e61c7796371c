import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { InjectRepository } from '@nestjs/typeorm';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Repository } from 'typeorm';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GraphQLContext, heavyWorkFor } from '../auth/graphql-context';
import { RequiresRole } from '../auth/roles.decorator';
import { FIXTURES_ROOT } from '../config/store-location';
import { heavyWork, OperationCost } from '../graphql/operation-cost';
import { Drill } from './drill.entity';
import { DrillRun } from './drill-run.entity';
import { renderDrillPlot, renderDrillText } from './drill-report';
import { DrillReport, DrillRunnerService } from './drill-runner.service';
import { DrillsErrorCode, DrillsException } from './drills.exception';
import { drillProblems, readDrillInput } from './drill-input';
import { DrillRunModel, ShippedDrillModel, StartDrillInput } from './dto/drill-run.dto';

@Resolver(() => DrillRunModel)
@UseGuards(ApiKeyGuard)
export class DrillsResolver {
  constructor(
    private readonly runner: DrillRunnerService,
    @InjectRepository(DrillRun) private readonly runs: Repository<DrillRun>,
    @InjectRepository(Drill) private readonly drills: Repository<Drill>,
  ) {}

  @Mutation(() => DrillRunModel, {
    complexity: OperationCost.fabricWork,
    description: 'Starts a drill (a shipped one by name, or a drill file); poll drillRun for progress and the report (operator).',
  })
  @RequiresRole(Role.operator)
  async startDrill(@Args('input') input: StartDrillInput): Promise<DrillRunModel> {
    const definition = readDrillInput(input);
    try {
      const { run } = await this.runner.start(definition, { keepFabric: input.keepFabric ?? false });
      return this.model(run, (definition as { name: string }).name);
    } catch (error) {
      throw drillProblems(error);
    }
  }

  @Query(() => DrillRunModel, { description: 'A drill run: where it is while it runs, then its report.' })
  async drillRun(@Args('id', { type: () => ID }) id: string): Promise<DrillRunModel> {
    const run = Number.isInteger(Number(id)) && Number(id) > 0 ? await this.runs.findOne({ where: { id: Number(id) } }) : null;
    if (!run) throw new DrillsException(DrillsErrorCode.RunNotFound, `no drill run with id ${id}`);
    const drill = await this.drills.findOne({ where: { id: run.drillId } });
    return this.model(run, drill?.name ?? '?');
  }

  @Query(() => [ShippedDrillModel], { description: 'The drills shipped with weft (fixtures/drills/), by name.' })
  shippedDrills(): ShippedDrillModel[] {
    const dir = join(FIXTURES_ROOT, 'drills');
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => {
        const drill = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { description?: string; fabric?: string };
        return { name: f.slice(0, -'.json'.length), description: drill.description ?? '', fabric: drill.fabric ?? '' };
      });
  }

  @Query(() => [DrillRunModel], { description: 'Drill runs, newest first.' })
  async drillRuns(): Promise<DrillRunModel[]> {
    const runs = await this.runs.find({ order: { id: 'DESC' }, take: 100, relations: { drill: true } });
    return Promise.all(runs.map((run) => this.model(run, run.drill?.name ?? '?')));
  }

  @ResolveField(() => String, { nullable: true, description: 'The report as readable text.', complexity: OperationCost.drillReportRendering })
  text(@Parent() run: DrillRunModel, @Context() ctx: GraphQLContext): Promise<string | null> {
    const report = completeReport(run);
    if (!report) return Promise.resolve(null);
    return heavyWork(() => renderDrillText(report), heavyWorkFor(ctx));
  }

  @ResolveField(() => String, {
    nullable: true,
    description: 'Throughput and latency over time with fault and push markers, as SVG.',
    complexity: OperationCost.drillReportRendering,
  })
  plotSvg(@Parent() run: DrillRunModel, @Context() ctx: GraphQLContext): Promise<string | null> {
    const report = completeReport(run);
    if (!report) return Promise.resolve(null);
    return heavyWork(() => renderDrillPlot(report), heavyWorkFor(ctx));
  }

  private async model(run: DrillRun, drill: string): Promise<DrillRunModel> {
    return {
      id: run.id,
      drill,
      state: run.state,
      progress: await this.runner.progressOf(run.id),
      report: run.report,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
    };
  }
}

/** A finished run's report; null while it runs (its report is then only the progress so far). */
function completeReport(run: DrillRunModel): DrillReport | null {
  const report = run.report as unknown as DrillReport | null;
  return report !== null && 'expectations' in report ? report : null;
}
