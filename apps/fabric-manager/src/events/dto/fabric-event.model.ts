import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { GraphQLJSONObject } from '../../graphql/json.scalar';
import { ConnectionType } from '../../graphql/pagination';
import { FabricEventKind } from '../fabric-event-kind';

registerEnumType(FabricEventKind, { name: 'FabricEventKind' });

@ObjectType('FabricEvent')
export class FabricEventModel {
  @Field(() => ID)
  id!: number;

  @Field(() => ID, { nullable: true })
  fabricId!: number | null;

  @Field(() => FabricEventKind)
  kind!: FabricEventKind;

  @Field(() => Float, { nullable: true, description: 'Emulated time of the event, in nanoseconds.' })
  emulatedTimeNs!: number | null;

  @Field()
  wallTime!: Date;

  @Field(() => String, { nullable: true })
  chip!: string | null;

  @Field(() => Int, { nullable: true })
  port!: number | null;

  @Field(() => Int, { nullable: true })
  vc!: number | null;

  @Field(() => Int, { nullable: true })
  lane!: number | null;

  @Field(() => GraphQLJSONObject)
  details!: Record<string, unknown>;

  @Field(() => String, { nullable: true })
  acknowledgedBy!: string | null;

  @Field(() => Date, { nullable: true })
  acknowledgedAt!: Date | null;

  @Field(() => String, { nullable: true })
  acknowledgementNote!: string | null;
}

export const FabricEventConnection = ConnectionType(FabricEventModel, 'FabricEvent');
