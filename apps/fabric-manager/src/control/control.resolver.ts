import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RequiresRole } from '../auth/roles.decorator';
import { describeUnreachable } from '@weft/control';
import { ConfigurationOutcome, ControlService } from './control.service';
import { ConfigurationResultModel, DiscoveryReportModel } from './dto/control.model';
import { FabricIdInput } from './dto/fabric-id.input';
import { OperationCost } from '../graphql/operation-cost';

@Resolver()
@UseGuards(ApiKeyGuard)
@RequiresRole(Role.operator)
export class ControlResolver {
  constructor(private readonly control: ControlService) {}

  @Mutation(() => DiscoveryReportModel, {
    description: 'Sweeps the fabric through its maintenance transport and compares it with the design (operator).',
    complexity: OperationCost.fabricWork,
  })
  async discoverFabric(@Args('input') input: FabricIdInput): Promise<DiscoveryReportModel> {
    const outcome = await this.control.discover(input.fabricId);
    return {
      chipsFound: outcome.discovered.chips.length,
      cablesFound: outcome.discovered.links.length,
      requests: outcome.discovered.requests,
      wallMs: outcome.wallMs,
      findings: outcome.findings.map((f) => ({ kind: f.kind, message: f.message, ends: [...f.ends] })),
    };
  }

  @Mutation(() => ConfigurationResultModel, {
    complexity: OperationCost.fabricWork,
    description: 'Discovers, computes the routing configuration, verifies it and pushes it if proven; stores it as a new generation (operator).',
  })
  async configureFabric(@Args('input') input: FabricIdInput): Promise<ConfigurationResultModel> {
    return configurationResult(await this.control.configure(input.fabricId));
  }
}

/** A configuration's outcome as the API reports it. */
export function configurationResult(outcome: ConfigurationOutcome): ConfigurationResultModel {
  return {
    generation: outcome.generation,
    verified: outcome.verification.ok,
    violations: outcome.verification.violations.map((v) => v.message),
    problems: outcome.problems,
    findings: outcome.findings.map((f) => ({ kind: f.kind, message: f.message, ends: [...f.ends] })),
    unreachable: outcome.unreachable.map(describeUnreachable),
    endpointsProven: outcome.verification.endpointsProven,
    writes: outcome.writes,
    unchanged: outcome.unchanged ?? false,
  };
}
