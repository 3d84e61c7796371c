import { UseGuards } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { InjectDataSource } from '@nestjs/typeorm';
import { FABRIC_FAMILY_MODELS, FabricFamily } from '@weft/fabric-model';
import { DataSource } from 'typeorm';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { FabricIdInput } from '../control/dto/fabric-id.input';
import { Chip } from '../fabrics/chip.entity';
import { FabricsService } from '../fabrics/fabrics.service';
import { Link } from '../fabrics/link.entity';
import { FaultsService } from '../faults/faults.service';
import { OperationCost } from '../graphql/operation-cost';
import { FabricPictureModel } from './fabric-picture.model';

@Resolver(() => FabricPictureModel)
@UseGuards(ApiKeyGuard)
export class FabricPictureResolver {
  constructor(
    private readonly fabrics: FabricsService,
    private readonly faults: FaultsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Query(() => FabricPictureModel, {
    description: 'The whole fabric in its family’s layout, every chip and cable with its state and the faults in force: what the console draws.',
    complexity: OperationCost.fabricWork,
  })
  async fabricPicture(@Args('input') input: FabricIdInput): Promise<FabricPictureModel> {
    const fabric = await this.fabrics.get(input.fabricId);
    const [chips, links, faults] = await Promise.all([
      this.dataSource.getRepository(Chip).find({ where: { fabricId: fabric.id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(Link).find({ where: { fabricId: fabric.id }, order: { id: 'ASC' } }),
      this.faults.active(fabric.id),
    ]);
    const family = FABRIC_FAMILY_MODELS[fabric.family as FabricFamily];
    const pictureChips = chips.map((c) => ({
      name: c.name,
      kind: c.kind,
      placement: JSON.parse(c.placement) as Record<string, number>,
      processor: c.processor,
    }));
    const layout = family.picture.layout(pictureChips);
    const index = new Map(chips.map((c, i) => [c.id, i]));
    const faultyRouters = new Set(faults.filter((f) => f.kind === 'router').map((f) => f.chip));
    const faultyEnds = new Set(faults.filter((f) => f.kind !== 'router' && f.port !== null).map((f) => `${f.chip}:${f.port}`));
    const cableFaulty = (l: Link) =>
      faultyEnds.has(`${chips[index.get(l.aChipId)!].name}:${l.aPort}`) || faultyEnds.has(`${chips[index.get(l.bChipId)!].name}:${l.bPort}`);
    return {
      fabricId: fabric.id,
      family: fabric.family,
      layout: family.picture.description,
      groups: [...layout.groups],
      chipNames: chips.map((c) => c.name),
      chipKinds: chips.map((c) => c.kind),
      chipStates: chips.map((c) => (faultyRouters.has(c.name) ? 'faulty' : c.state)),
      chipX: Array.from(layout.x),
      chipY: Array.from(layout.y),
      chipGroups: Array.from(layout.group),
      cableA: links.map((l) => index.get(l.aChipId)!),
      cableAPort: links.map((l) => l.aPort),
      cableB: links.map((l) => index.get(l.bChipId)!),
      cableBPort: links.map((l) => l.bPort),
      cableClasses: links.map((l) => l.cableClass),
      cableStates: links.map((l) => (cableFaulty(l) ? 'faulty' : l.state)),
    };
  }
}
