import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GraphQLContext, heavyWorkFor } from '../auth/graphql-context';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { GenerationImages } from '../config-generations/generation-images.service';
import { PushRecord } from '../config-generations/push-record.entity';
import { ChipImages, GenerationCircumstances, RouterDiff, routerPairs, routingEngineNamed, routingEngineOf, whyNotConfigured } from '@weft/control';
import { heavyWork, mapInSlices, OperationCost } from '../graphql/operation-cost';
import { FabricsService } from '../fabrics/fabrics.service';
import { ControlErrorCode, ControlException } from './control.exception';
import { ConfigGenerationModel, PushModel } from './dto/control.model';
import { GenerationImageInput, GenerationImageModel } from './dto/analysis.model';
import { FabricIdInput } from './dto/fabric-id.input';
import { presentRouterConfiguration } from './router-configurations';
import { GenerationDiffInput, GenerationDiffModel, RouterConfigurationInput, RouterConfigurationModel } from './dto/router-configuration.model';

/** The configuration history of a fabric: its generations, the pushes that wrote them, each
 * router's registers decoded, and what changed between two generations. */
@Resolver()
@UseGuards(ApiKeyGuard)
export class GenerationsResolver {
  constructor(
    @InjectRepository(ConfigGeneration) private readonly generationRows: Repository<ConfigGeneration>,
    @InjectRepository(PushRecord) private readonly pushRows: Repository<PushRecord>,
    private readonly fabrics: FabricsService,
    private readonly images: GenerationImages,
  ) {}

  /** The last few diffs made, by the ids of their two generations: a client paging through one
   * diff, or asking for it under several aliases, has it made once. */
  private readonly diffs: { key: string; routers: Promise<RouterDiff[]> }[] = [];

  private async image(
    fabricId: number,
    number?: number,
  ): Promise<{ id: number; number: number; engine: string; image: ChipImages; circumstances: GenerationCircumstances | null }> {
    await this.fabrics.get(fabricId); // names a missing fabric as such
    const where = number === undefined ? { fabricId, state: 'pushed' } : { fabricId, number };
    const row = await this.generationRows.findOne({ where, order: { number: 'DESC' }, select: { id: true, number: true, engine: true, circumstances: true } });
    if (!row) {
      throw new ControlException(
        ControlErrorCode.GenerationNotFound,
        number === undefined ? `fabric ${fabricId} has no pushed generation yet` : `fabric ${fabricId} has no generation ${number}`,
      );
    }
    return {
      id: row.id,
      number: row.number,
      engine: row.engine,
      image: await this.images.read<ChipImages>(fabricId, row.number),
      circumstances: row.circumstances ? (JSON.parse(row.circumstances) as GenerationCircumstances) : null,
    };
  }

  @Query(() => RouterConfigurationModel, {
    description: "A router's registers in a generation (default: the last pushed), decoded and raw.",
    complexity: OperationCost.routerConfiguration,
  })
  routerConfiguration(@Args('input') input: RouterConfigurationInput, @Context() ctx: GraphQLContext): Promise<RouterConfigurationModel> {
    return heavyWork(() => this.decodeRouter(input), heavyWorkFor(ctx));
  }

  private async decodeRouter(input: RouterConfigurationInput): Promise<RouterConfigurationModel> {
    const { number, engine, image, circumstances } = await this.image(input.fabricId, input.generation);
    const chip = image.routers.find((r) => r.name === input.chip);
    const { design } = await this.fabrics.design(input.fabricId);
    if (!chip) {
      const why = design.chips.some((c) => c.name === input.chip && c.kind === 'router') ? whyNotConfigured(input.chip, circumstances) : null;
      throw new ControlException(
        ControlErrorCode.RouterNotConfigured,
        `generation ${number} of fabric ${input.fabricId} configures no router "${input.chip}"${why ? `: ${why}` : ''}`,
      );
    }
    // Decoded by the engine that made the generation, presented as its family's GraphQL type.
    const decode = routingEngineNamed(engine).decodeChip;
    if (!decode)
      throw new ControlException(
        ControlErrorCode.AnalysisInvalid,
        `the ${engine} engine's images are not decoded through the API yet: dump the generation instead`,
      );
    return presentRouterConfiguration(decode(chip, design, circumstances), number);
  }

  @Query(() => GenerationDiffModel, {
    description: 'Register by register, what differs between two generations of a fabric.',
    complexity: OperationCost.generationDiff,
  })
  generationDiff(@Args('input') input: GenerationDiffInput, @Context() ctx: GraphQLContext): Promise<GenerationDiffModel> {
    return heavyWork(() => this.diff(input), heavyWorkFor(ctx));
  }

  private async diff(input: GenerationDiffInput): Promise<GenerationDiffModel> {
    const from = await this.image(input.fabricId, input.from);
    const to = await this.image(input.fabricId, input.to);
    const key = `${from.id}/${to.id}`;
    let made = this.diffs.find((d) => d.key === key);
    if (!made) {
      // In the chip's terms of the engine that made the newer generation.
      const engine = routingEngineNamed(to.engine);
      // A chip the newer generation took over unchanged (its delta shares it, generation-images.service.ts) is skipped unread.
      made = {
        key,
        routers: mapInSlices(routerPairs(from.image, to.image), ([chip, old, now]) => (old === now ? undefined : engine.diffChip(chip, old, now))),
      };
      this.diffs.unshift(made);
      this.diffs.length = Math.min(this.diffs.length, 4);
    }
    const routers = await made.routers;
    return {
      from: input.from,
      to: input.to,
      changedRouters: routers.length,
      changedRegisters: routers.reduce((n, r) => n + r.changes.length, 0),
      routers: routers
        .slice(0, input.first)
        .map((r) => ({ chip: r.chip, changes: r.changes.map((c) => ({ ...c, before: c.before && [...c.before], after: c.after && [...c.after] })) })),
    };
  }

  @Query(() => GenerationImageModel, {
    description: "A generation's register image (default: the last pushed) as readable text, whole or for some chips: the golden form of a configuration.",
    complexity: OperationCost.generationDiff,
  })
  generationImage(@Args('input') input: GenerationImageInput, @Context() ctx: GraphQLContext): Promise<GenerationImageModel> {
    return heavyWork(async () => {
      const { number, image } = await this.image(input.fabricId, input.generation);
      const fabric = await this.fabrics.get(input.fabricId);
      const engine = routingEngineOf(fabric.family);
      let chosen = image;
      if (input.chips) {
        const wanted = new Set(input.chips);
        chosen = { ...image, routers: image.routers.filter((r) => wanted.has(r.name)) };
        const missing = input.chips.filter((c) => !chosen.routers.some((r) => r.name === c));
        if (missing.length > 0)
          throw new ControlException(
            ControlErrorCode.RouterNotConfigured,
            `generation ${number} of fabric ${input.fabricId} configures no chip ${missing.map((m) => `"${m}"`).join(', ')}`,
          );
      }
      return { generation: number, format: engine.dumpFormat, chips: chosen.routers.length, text: engine.dump(chosen) };
    }, heavyWorkFor(ctx));
  }

  @Query(() => [ConfigGenerationModel], { description: 'Configuration generations of a fabric, oldest first.' })
  generations(@Args('input') input: FabricIdInput): Promise<ConfigGeneration[]> {
    return this.generationRows.find({
      where: { fabricId: input.fabricId },
      order: { number: 'ASC' },
      select: { id: true, number: true, engine: true, state: true, createdAt: true, pushedAt: true, circumstances: true },
    });
  }

  @Query(() => [PushModel], { description: 'Pushes into a fabric, oldest first, with their progress.' })
  async pushes(@Args('input') input: FabricIdInput): Promise<PushModel[]> {
    const rows = await this.pushRows.find({ where: { fabricId: input.fabricId }, order: { id: 'ASC' }, relations: { generation: true } });
    return rows.map((p) => ({ ...p, generation: p.generation!.number }));
  }
}

/** What a generation was computed around, read from what it recorded when it was made. */
@Resolver(() => ConfigGenerationModel)
export class ConfigGenerationFieldsResolver {
  @ResolveField(() => [ID], {
    description:
      'The faults in force when it was computed, which it routes around (a generation made before weft recorded them lists none). A client that declared or cleared a fault finds the generation that took it in here.',
  })
  faultIds(@Parent() generation: ConfigGeneration): number[] {
    if (!generation.circumstances) return [];
    return (JSON.parse(generation.circumstances) as GenerationCircumstances).faults.map((f) => f.id);
  }
}
