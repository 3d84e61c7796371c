import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('Fault')
export class FaultModel {
  @Field(() => ID)
  id!: number;

  @Field(() => ID)
  fabricId!: number;

  @Field({ description: '"link" or "router".' })
  kind!: string;

  @Field()
  chip!: string;

  @Field(() => Int, { nullable: true })
  port!: number | null;

  @Field({ description: '"operator" or "interrupt".' })
  source!: string;

  @Field()
  note!: string;

  @Field()
  declaredAt!: Date;

  @Field(() => Date, { nullable: true })
  clearedAt!: Date | null;
}
