import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { Anton2Pattern, Anton2RoutingSettings, Anton2SettingsReport } from '@weft/control';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentKey } from '../auth/current-key.decorator';
import { RequiresRole } from '../auth/roles.decorator';
import { OperationCost } from '../graphql/operation-cost';
import { ControlErrorCode, ControlException } from './control.exception';
import { ControlService } from './control.service';
import { Anton2RoutingInput, Anton2RoutingModel, Anton2RoutingSettingsInput } from './dto/anton2-routing.model';
import { ConfigurationResultModel } from './dto/control.model';
import { configurationResult } from './control.resolver';

/**
 * An Anton 2 machine's routing settings over GraphQL (issue 37): the patterns whose loads set the
 * arbiters' inverse weights, and the multicast groups — read by anyone, set by operators, each
 * change a new generation, proven and pushed.
 */
@Resolver()
@UseGuards(ApiKeyGuard)
export class Anton2RoutingResolver {
  constructor(private readonly control: ControlService) {}

  private async anton2(fabricId: number): Promise<{ settings: Anton2RoutingSettings; report: Anton2SettingsReport }> {
    const { engine, settings, report } = await this.control.routingSettings(fabricId);
    if (engine !== 'anton2')
      throw new ControlException(ControlErrorCode.SettingsInvalid, `fabric ${fabricId} is not an Anton 2 machine (its routing engine is ${engine})`);
    return { settings: settings as Anton2RoutingSettings, report: report as Anton2SettingsReport };
  }

  @Query(() => Anton2RoutingModel, { description: 'An Anton 2 machine’s weight patterns and multicast groups, with each group’s trees and the fullest table.' })
  async anton2Routing(@Args('input') input: Anton2RoutingInput): Promise<Anton2RoutingModel> {
    const { settings, report } = await this.anton2(input.fabricId);
    const trees = new Map(report.groups.map((g) => [g.group, g]));
    return {
      arbiterPatterns: settings.arbiterPatterns.map((p) => (p.name === 'matrix' ? { name: p.name, matrix: p.weights.map((row) => [...row]) } : { ...p })),
      multicastGroups: settings.multicastGroups.map((g) => ({
        group: g.group,
        source: g.source,
        destinations: g.destinations.map((d) => ({ chip: d.chip, endpoints: [...d.endpoints] })),
        trees: (trees.get(g.group)?.trees ?? []).map((t) => ({ ...t })),
        unicastHops: trees.get(g.group)?.unicastHops ?? null,
      })),
      unserved: [...report.unserved],
      tableEntriesMax: report.tableEntriesMax,
      tableCapacity: report.tableCapacity,
    };
  }

  @Mutation(() => ConfigurationResultModel, {
    complexity: OperationCost.fabricWork,
    description:
      'Sets an Anton 2 machine’s weight patterns and/or multicast groups (checked whole: unknown chips, empty sets, full tables are refused, naming each) and configures it with them: a new generation, proven and pushed (operator).',
  })
  @RequiresRole(Role.operator)
  async setAnton2Routing(@Args('input') input: Anton2RoutingSettingsInput, @CurrentKey() key: { name: string }): Promise<ConfigurationResultModel> {
    const { settings } = await this.anton2(input.fabricId);
    const next: Anton2RoutingSettings = {
      // The engine checks names and hops (applySettings), naming what is wrong.
      arbiterPatterns:
        input.arbiterPatterns?.map(
          (p) =>
            ({ name: p.name, ...(p.hops === undefined ? {} : { hops: p.hops }), ...(p.matrix === undefined ? {} : { weights: p.matrix }) }) as Anton2Pattern,
        ) ?? settings.arbiterPatterns,
      multicastGroups: input.multicastGroups ?? settings.multicastGroups,
    };
    const parts = [input.arbiterPatterns && 'weight patterns', input.multicastGroups && 'multicast groups'].filter(Boolean).join(' and ');
    return configurationResult(await this.control.changeRoutingSettings(input.fabricId, next, `operator ${key.name}: ${parts || 'routing settings'}`));
  }
}
