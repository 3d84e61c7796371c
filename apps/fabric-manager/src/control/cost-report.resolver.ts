import { UseGuards } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import { checkFlatDesign, CostReport, costPlotSpec, costReport, JsonChecker, PAPER_COST_ASSUMPTIONS, TopologyCost } from '@weft/fabric-model';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GraphQLContext, heavyWorkFor } from '../auth/graphql-context';
import { heavyWork, OperationCost } from '../graphql/operation-cost';
import { renderVegaLiteSvg } from '../plots/vega-lite-svg';
import { ControlErrorCode, ControlException } from './control.exception';
import { CostReportInput, CostReportModel, TopologyCostModel } from './dto/cost-report.model';

const topology = (t: TopologyCost): TopologyCostModel => ({ ...t, links: t.links.map((l) => ({ ...l })) });

/**
 * `weft report cost` over GraphQL (issue 38): a flattened butterfly's cost and power against the
 * folded Clos, butterfly and hypercube of as many terminals — for N terminals, or for a design
 * costed cable by cable. A computation on what the query gives; it reads no fabric.
 */
@Resolver()
@UseGuards(ApiKeyGuard)
export class CostReportResolver {
  @Query(() => CostReportModel, {
    complexity: OperationCost.costReport,
    description: 'Cost and power per node of a flattened butterfly and the topologies paper 003 §4.3 compares it with.',
  })
  costReport(@Args('input') input: CostReportInput, @Context() ctx: GraphQLContext): Promise<CostReportModel> {
    // Taking turns with other heavy work, the event loop given back between slices (a 64K-node design lays out 92K cables).
    return heavyWork(() => this.report(input), heavyWorkFor(ctx));
  }

  private async report(input: CostReportInput): Promise<CostReportModel> {
    if ((input.terminals === undefined || input.terminals === null) === (input.design === undefined || input.design === null))
      throw new ControlException(ControlErrorCode.AnalysisInvalid, 'give either terminals or a design (a flattened butterfly to cost cable by cable)', {
        problems: ['input: exactly one of terminals and design'],
      });
    const assumptions = { ...PAPER_COST_ASSUMPTIONS, radix: input.radix };
    let report: CostReport;
    if (input.design) {
      const checker = new JsonChecker();
      const design = checkFlatDesign(Object.fromEntries(Object.entries(input.design).filter(([, v]) => v !== undefined && v !== null)), checker);
      if (!design) {
        const problems = checker.issues.map((i) => `${i.path.replace(/^\$\.design/, 'input.design')}: ${i.message}`);
        throw new ControlException(ControlErrorCode.AnalysisInvalid, `the design is not a flattened butterfly weft builds: ${problems.join('; ')}`, {
          problems,
        });
      }
      report = costReport({ design }, assumptions);
    } else report = costReport({ terminals: input.terminals! }, assumptions);
    return {
      terminals: report.terminals,
      design: report.design ? topology(report.design) : null,
      topologies: report.topologies.map(topology),
      curve: report.curve.map((p) => ({ ...p })),
      assumptions: [...report.notes],
      plotSvg: input.plot ? await renderVegaLiteSvg(costPlotSpec(report)) : null,
    };
  }
}
