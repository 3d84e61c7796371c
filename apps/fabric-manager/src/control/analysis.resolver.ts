import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { channelName } from '@weft/control';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { clientOf, GraphQLContext, heavyWorkFor } from '../auth/graphql-context';
import { heavyWork, OperationCost } from '../graphql/operation-cost';
import { Role } from '../auth/role';
import { AnalysisRun, AnalysisService } from './analysis.service';
import {
  AnalysisRunModel,
  ChannelDependenciesInput,
  ChannelDependencyReportModel,
  ChannelLoadInput,
  ChannelLoadReportModel,
  RouteTraceInput,
  RouteTraceModel,
} from './dto/analysis.model';

/** Route trace, channel load and the channel-dependency check on the configuration in force. */
@Resolver()
@UseGuards(ApiKeyGuard)
export class AnalysisResolver {
  constructor(private readonly analysis: AnalysisService) {}

  @Query(() => RouteTraceModel, {
    description: 'The path a packet takes between two endpoints under the configuration in force, hop by hop, with every port routing may spread over.',
    complexity: OperationCost.routerConfiguration,
  })
  routeTrace(@Args('input') input: RouteTraceInput, @Context() ctx: GraphQLContext): Promise<RouteTraceModel> {
    return heavyWork(async () => {
      const trace = await this.analysis.trace(input);
      return {
        generation: trace.generation,
        source: trace.nameOf(trace.source),
        destination: trace.nameOf(trace.destination),
        plane: trace.plane,
        outcome: trace.outcome,
        reason: trace.reason,
        injection: trace.injection && channelName(trace.injection),
        hops: trace.hops.map((h) => ({ ...h, farEnd: channelName(h.farEnd), choices: [...h.choices] })),
      };
    }, heavyWorkFor(ctx));
  }

  @Query(() => ChannelLoadReportModel, {
    description: 'Expected load on every channel for a named pattern or a traffic matrix under the configuration in force; the busiest listed.',
    complexity: OperationCost.channelAnalysis,
  })
  channelLoad(@Args('input') input: ChannelLoadInput, @Context() ctx: GraphQLContext): Promise<ChannelLoadReportModel> {
    return heavyWork(async () => loadReport(await this.analysis.load(input), input.top), heavyWorkFor(ctx));
  }

  @Mutation(() => AnalysisRunModel, {
    description:
      'Starts a channel load off the request path, as channelLoad computes it: read its progress and report with analysisRun, give it up with cancelAnalysis. Bad input is refused at once.',
  })
  async startChannelLoad(@Args('input') input: ChannelLoadInput, @Context() ctx: GraphQLContext): Promise<AnalysisRunModel> {
    return runModel(await this.analysis.startLoad(input, clientOf(ctx)));
  }

  @Query(() => AnalysisRunModel, { description: 'An analysis this key started (an administrator’s key: any), as far as it has got.' })
  analysisRun(@Args('id', { type: () => ID }) id: string, @Context() ctx: GraphQLContext): AnalysisRunModel {
    return runModel(this.analysis.run(id, clientOf(ctx), ctx.apiKey?.role === Role.admin));
  }

  @Mutation(() => AnalysisRunModel, { description: 'Gives up an analysis this key started: it stops at its next turn.' })
  cancelAnalysis(@Args('id', { type: () => ID }) id: string, @Context() ctx: GraphQLContext): AnalysisRunModel {
    return runModel(this.analysis.cancel(id, clientOf(ctx), ctx.apiKey?.role === Role.admin));
  }

  @Query(() => ChannelDependencyReportModel, {
    description: 'Builds the channel-dependency graph of the configuration in force per VC and proves it acyclic, or returns one cycle.',
    complexity: OperationCost.channelAnalysis,
  })
  channelDependencies(@Args('input') input: ChannelDependenciesInput, @Context() ctx: GraphQLContext): Promise<ChannelDependencyReportModel> {
    return heavyWork(async () => {
      const report = await this.analysis.dependencies(input);
      return { ...report, cycle: report.cycle && [...report.cycle] };
    }, heavyWorkFor(ctx));
  }
}

/** A channel load as the API reports it, its `top` busiest channels listed. */
function loadReport(report: NonNullable<AnalysisRun['result']>, top: number): ChannelLoadReportModel {
  return {
    generation: report.generation,
    pattern: report.pattern,
    flows: report.flows,
    channels: report.channels,
    maximum: report.maximum,
    mean: report.mean,
    undeliverable: report.undeliverable,
    histogram: [...report.histogram],
    top: report.loads.slice(0, top).map((l) => ({ channel: channelName(l.channel), farEnd: channelName(l.farEnd), load: l.load })),
    crossing: report.crossing.map((c) => ({ ...c, source: report.nameOf(c.source), destination: report.nameOf(c.destination) })),
  };
}

function runModel(run: AnalysisRun): AnalysisRunModel {
  return {
    id: run.id,
    kind: run.kind,
    state: run.state,
    progress: run.progress,
    error: run.error,
    channelLoad: run.result && loadReport(run.result, run.top),
  };
}
