import { UseGuards } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { PushRecord } from '../config-generations/push-record.entity';
import { ConfigGenerationModel, PushModel } from './dto/control.model';
import { FabricIdInput } from './dto/fabric-id.input';

/** The configuration history of a fabric: its generations and the pushes that wrote them. */
@Resolver()
@UseGuards(ApiKeyGuard)
export class GenerationsResolver {
  constructor(
    @InjectRepository(ConfigGeneration) private readonly generationRows: Repository<ConfigGeneration>,
    @InjectRepository(PushRecord) private readonly pushRows: Repository<PushRecord>,
  ) {}

  @Query(() => [ConfigGenerationModel], { description: 'Configuration generations of a fabric, oldest first.' })
  generations(@Args('input') input: FabricIdInput): Promise<ConfigGeneration[]> {
    return this.generationRows.find({
      where: { fabricId: input.fabricId },
      order: { number: 'ASC' },
      select: { id: true, number: true, engine: true, state: true, createdAt: true, pushedAt: true },
    });
  }

  @Query(() => [PushModel], { description: 'Pushes into a fabric, oldest first, with their progress.' })
  async pushes(@Args('input') input: FabricIdInput): Promise<PushModel[]> {
    const rows = await this.pushRows.find({ where: { fabricId: input.fabricId }, order: { id: 'ASC' }, relations: { generation: true } });
    return rows.map((p) => ({ ...p, generation: p.generation!.number }));
  }
}
