import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageArgs } from '../../graphql/pagination';
import { IsChipName, IsPlane, IsRowId, MAX_PLANES } from '../../graphql/validators';

@ArgsType()
export class FabricArgs {
  @Field(() => ID)
  @IsRowId('id')
  id!: number;
}

@ArgsType()
export class ChipArgs {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field()
  @IsChipName()
  name!: string;
}

@ArgsType()
export class ChipPageArgs extends PageArgs {
  @Field({ nullable: true, description: '"router" or "endpoint".' })
  @IsOptional()
  @IsIn(['router', 'endpoint'])
  kind?: string;

  @Field(() => Int, { nullable: true, description: 'The plane (BlackWidow: slice) of the chips.' })
  @IsPlane()
  slice?: number;

  @Field(() => Int, { nullable: true, description: 'The rank of the routers (families with ranks).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_PLANES - 1)
  rank?: number;
}
