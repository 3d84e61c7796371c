import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { FlatRoutingSettings } from '@weft/control';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentKey } from '../auth/current-key.decorator';
import { RequiresRole } from '../auth/roles.decorator';
import { OperationCost } from '../graphql/operation-cost';
import { ControlErrorCode, ControlException } from './control.exception';
import { configurationResult } from './control.resolver';
import { ControlService } from './control.service';
import { Anton2RoutingInput } from './dto/anton2-routing.model';
import { ConfigurationResultModel } from './dto/control.model';
import { FlatRoutingModel, FlatRoutingSettingsInput } from './dto/flat-routing.model';

/**
 * A flattened butterfly's routing algorithm over GraphQL (issue 38): read by anyone, set by
 * operators — the change a new generation, proven and pushed.
 */
@Resolver()
@UseGuards(ApiKeyGuard)
export class FlatRoutingResolver {
  constructor(private readonly control: ControlService) {}

  private async flat(fabricId: number): Promise<FlatRoutingSettings> {
    const { engine, settings } = await this.control.routingSettings(fabricId);
    if (engine !== 'flattened-butterfly')
      throw new ControlException(ControlErrorCode.SettingsInvalid, `fabric ${fabricId} is not a flattened butterfly (its routing engine is ${engine})`);
    return settings as FlatRoutingSettings;
  }

  @Query(() => FlatRoutingModel, { description: 'A flattened butterfly’s routing algorithm and allocator.' })
  async flatRouting(@Args('input') input: Anton2RoutingInput): Promise<FlatRoutingModel> {
    const settings = await this.flat(input.fabricId);
    return { routing: settings.routing, allocator: settings.allocator ?? null };
  }

  @Mutation(() => ConfigurationResultModel, {
    complexity: OperationCost.fabricWork,
    description: 'Sets a flattened butterfly’s routing algorithm (and allocator) and configures it with them: a new generation, proven and pushed (operator).',
  })
  @RequiresRole(Role.operator)
  async setFlatRouting(@Args('input') input: FlatRoutingSettingsInput, @CurrentKey() key: { name: string }): Promise<ConfigurationResultModel> {
    await this.flat(input.fabricId);
    const next = { routing: input.routing, ...(input.allocator ? { allocator: input.allocator } : {}) };
    return configurationResult(await this.control.changeRoutingSettings(input.fabricId, next, `operator ${key.name}: routing ${input.routing}`));
  }
}
