import { Field, Float, ID, InputType, ObjectType } from '@nestjs/graphql';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { GraphQLJSONObject } from '../../graphql/json.scalar';

@InputType()
export class StartDrillInput {
  @Field({ nullable: true, description: 'A shipped drill by name, e.g. "cable-cut-under-load" (fixtures/drills/).' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  fixture?: string;

  @Field({ nullable: true, description: 'Or the drill file itself (JSON, format weft-drill/1).' })
  @IsOptional()
  @IsString()
  @MaxLength(1_000_000)
  drill?: string;

  @Field({
    nullable: true,
    defaultValue: false,
    description:
      'Leave the fabric the run loads in place afterwards, to look at its generations and faults; by default it is deleted when the run ends (the report keeps what the run measured).',
  })
  @IsOptional()
  @IsBoolean()
  keepFabric?: boolean;
}

@ObjectType('DrillProgress')
export class DrillProgressModel {
  @Field(() => Float)
  emulatedNs!: number;

  @Field(() => Float)
  durationNs!: number;

  @Field()
  step!: string;
}

@ObjectType('DrillRun')
export class DrillRunModel {
  @Field(() => ID)
  id!: number;

  @Field()
  drill!: string;

  @Field({ description: 'running, passed, failed or aborted.' })
  state!: string;

  @Field(() => DrillProgressModel, { nullable: true, description: 'Where a running drill is.' })
  progress!: DrillProgressModel | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The report: expectations, timeline, interrupts, generations, heal times, traffic and the books.',
  })
  report!: Record<string, unknown> | null;

  @Field()
  startedAt!: Date;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;
}

@ObjectType('ShippedDrill', { description: 'A drill shipped in fixtures/drills/, to start by name.' })
export class ShippedDrillModel {
  @Field({ description: 'Its name, as startDrill(input: { fixture }) takes it.' })
  name!: string;
  @Field()
  description!: string;
  @Field({ description: 'The fixture of the fabric it loads.' })
  fabric!: string;
}
