import { UseGuards } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { OperationCost } from '../graphql/operation-cost';
import { FabricPictureInput, FabricPictureModel } from './fabric-picture.model';
import { FabricPictureService } from './fabric-picture.service';

@Resolver(() => FabricPictureModel)
@UseGuards(ApiKeyGuard)
export class FabricPictureResolver {
  constructor(private readonly pictures: FabricPictureService) {}

  @Query(() => FabricPictureModel, {
    description:
      'The fabric in its family’s layout, every chip and cable with its state and the faults in force: what the console draws. A fabric of more than 5,000 chips comes aggregated into cells (detail: auto), which open one at a time (cell).',
    complexity: OperationCost.fabricWork,
  })
  fabricPicture(@Args('input') input: FabricPictureInput): Promise<FabricPictureModel> {
    return this.pictures.picture(input.fabricId, input.detail ?? 'auto', input.cell ?? undefined);
  }
}
