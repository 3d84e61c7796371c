import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from '../../graphql/pagination';

@ObjectType('CableEnd')
export class CableEndModel {
  @Field()
  chip!: string;

  @Field(() => Int)
  port!: number;
}

@ObjectType('Link')
export class LinkModel {
  @Field(() => ID)
  id!: number;

  aChipId!: number;
  aPort!: number;
  bChipId!: number;
  bPort!: number;

  @Field({ description: 'injection, up, side or unplanned.' })
  cableClass!: string;

  @Field(() => Float)
  lengthMeters!: number;

  @Field(() => Float, { description: 'Per-lane signalling rate, Gb/s.' })
  rateGbps!: number;

  @Field(() => Int)
  lanes!: number;

  @Field()
  state!: string;
}

export const LinkConnection = ConnectionType(LinkModel, 'Link');
