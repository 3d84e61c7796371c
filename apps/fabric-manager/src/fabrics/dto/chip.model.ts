import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from '../../graphql/pagination';

@ObjectType('Chip')
export class ChipModel {
  @Field(() => ID)
  id!: number;

  @Field(() => ID)
  fabricId!: number;

  @Field()
  name!: string;

  @Field({ description: '"router" or "endpoint".' })
  kind!: string;

  @Field({ description: 'Chip model, e.g. "YARC".' })
  model!: string;

  @Field(() => Int, { description: 'Processor number of an endpoint; -1 for routers.' })
  processor!: number;

  @Field(() => Int)
  portCount!: number;

  @Field({ description: 'expected (designed, not yet discovered), discovered, missing or unexpected.' })
  state!: string;
}

export const ChipConnection = ConnectionType(ChipModel, 'Chip');
