import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from '../../graphql/pagination';

@ObjectType('Port')
export class PortModel {
  @Field(() => ID)
  id!: number;

  @Field(() => ID)
  chipId!: number;

  @Field(() => Int, { description: 'Physical port number.' })
  number!: number;

  @Field({ description: 'Designed role: down, up, side, injection or unused.' })
  role!: string;

  @Field(() => Int, { description: 'Virtual router the port belongs to (paper 000 §7.4).' })
  virtualRouter!: number;

  @Field(() => Int, { nullable: true, description: 'Logical port number, once the control plane has assigned it.' })
  logicalPort!: number | null;

  @Field()
  state!: string;
}

export const PortConnection = ConnectionType(PortModel, 'Port');
