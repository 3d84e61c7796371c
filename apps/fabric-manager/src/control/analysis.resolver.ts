import { UseGuards } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import { channelName } from '@weft/control';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GraphQLContext, heavyWorkFor } from '../auth/graphql-context';
import { heavyWork, OperationCost } from '../graphql/operation-cost';
import { AnalysisService } from './analysis.service';
import {
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
    return heavyWork(async () => {
      const report = await this.analysis.load(input);
      return {
        generation: report.generation,
        pattern: report.pattern,
        flows: report.flows,
        channels: report.channels,
        maximum: report.maximum,
        mean: report.mean,
        undeliverable: report.undeliverable,
        histogram: [...report.histogram],
        top: report.loads.slice(0, input.top).map((l) => ({ channel: channelName(l.channel), farEnd: channelName(l.farEnd), load: l.load })),
        crossing: report.crossing.map((c) => ({ ...c, source: report.nameOf(c.source), destination: report.nameOf(c.destination) })),
      };
    }, heavyWorkFor(ctx));
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
