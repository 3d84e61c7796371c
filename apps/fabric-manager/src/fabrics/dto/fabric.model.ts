import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from '../../graphql/json.scalar';
import { ConnectionType } from '../../graphql/pagination';

@ObjectType('Fabric')
export class FabricModel {
  @Field(() => ID)
  id!: number;

  @Field()
  name!: string;

  @Field({ description: 'Fabric family, e.g. "blackwidow".' })
  family!: string;

  @Field()
  description!: string;

  @Field({ description: 'Where the installation came from: a fixture path or "installation" for inline JSON.' })
  source!: string;

  @Field(() => GraphQLJSONObject, { description: 'Shape of the expected design (network class, processors, slices, ...).' })
  summary!: Record<string, string | number>;

  @Field(() => Int)
  chipCount!: number;

  @Field(() => Int)
  portCount!: number;

  @Field(() => Int)
  linkCount!: number;

  @Field()
  createdAt!: Date;
}

export const FabricConnection = ConnectionType(FabricModel, 'Fabric');
