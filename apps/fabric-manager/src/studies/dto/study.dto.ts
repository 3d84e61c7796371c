import { Field, Float, ID, InputType, Int, ObjectType, OmitType } from '@nestjs/graphql';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNumber, Max, Min } from 'class-validator';
import { GraphQLJSONObject } from '../../graphql/json.scalar';
import { StartTrafficRunInput } from '../../traffic/dto/traffic-run.dto';

@InputType({ description: 'A latency–load sweep: a steady-state traffic run per offered load, each a point a worker does.' })
export class StartSweepInput extends OmitType(StartTrafficRunInput, ['mode', 'load', 'packets', 'limit'] as const, InputType) {
  @Field(() => [Float], { description: 'The offered loads, each a fraction of the injection link (0–1], all different: one point each.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(64)
  @IsNumber({}, { each: true })
  @Min(0.001, { each: true })
  @Max(1, { each: true })
  loads!: number[];
}

@ObjectType('StudyPoint')
export class StudyPointModel {
  @Field(() => Int)
  index!: number;

  @Field(() => GraphQLJSONObject, { description: "The point's own parameters (a sweep's load)." })
  parameters!: Record<string, unknown>;

  @Field({ description: 'queued, running, done or failed.' })
  state!: string;

  @Field(() => String, { nullable: true, description: 'Who did (or is doing) it: a worker as host:pid, or manager.' })
  worker!: string | null;

  @Field(() => Int, { description: 'Times it was begun: more than one when a worker died during it and another took it over.' })
  attempts!: number;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The run's report (done), or { error } (failed)." })
  result!: Record<string, unknown> | null;
}

@ObjectType('Study')
export class StudyModel {
  @Field(() => ID)
  id!: number;

  @Field(() => ID)
  fabricId!: number;

  @Field({ description: 'sweep' })
  kind!: string;

  @Field(() => Int, { description: 'The generation every point ran under (the last pushed when the study began).' })
  generation!: number;

  @Field(() => GraphQLJSONObject, { description: 'What the points share (the traffic request but its load).' })
  parameters!: Record<string, unknown>;

  @Field({ description: 'queued, running, finished (every point done) or failed (a point failed).' })
  state!: string;

  @Field()
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => Int)
  pointsDone!: number;

  @Field(() => Int)
  pointsTotal!: number;

  @Field(() => [StudyPointModel])
  points!: StudyPointModel[];

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'A sweep: { pattern, points: [{ load, accepted, meanLatencyCycles, p99LatencyCycles, saturated }], saturationLoad, peakAccepted } over the points done.',
  })
  report!: Record<string, unknown> | null;
}
