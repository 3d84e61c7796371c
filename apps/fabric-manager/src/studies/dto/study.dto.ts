import { Field, Float, ID, InputType, Int, ObjectType, OmitType, PickType } from '@nestjs/graphql';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { GraphQLJSONObject } from '../../graphql/json.scalar';
import { StartDrillInput } from '../../drills/dto/drill-run.dto';
import { IsRowId } from '../../graphql/validators';
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

  @Field(() => GraphQLJSONObject, { description: "The point's own parameters: a sweep's load, or a seed." })
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

  @Field(() => ID, {
    nullable: true,
    description: 'The fabric its points ran on (each on a copy of its own); null for a drill campaign, whose drill loads its own.',
  })
  fabricId!: number | null;

  @Field({ description: 'sweep, channel-load or drill-campaign' })
  kind!: string;

  @Field(() => Int, { nullable: true, description: 'The generation every point ran under (the last pushed when the study began); null for a drill campaign.' })
  generation!: number | null;

  @Field(() => GraphQLJSONObject, { description: 'What the points share: the traffic request but its load, the pattern, or the drill.' })
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

@InputType({
  description: 'A drill campaign: the drill run once per seed (its traffic seeded with it), each run a point a worker does in a manager of its own.',
})
export class StartDrillCampaignInput extends PickType(StartDrillInput, ['fixture', 'drill'] as const, InputType) {
  @Field(() => [Int], { description: 'The seeds, all different: one run each.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(256)
  @IsInt({ each: true })
  @Min(0, { each: true })
  seeds!: number[];
}

@InputType({ description: "A channel-load study: a pattern's expected channel loads under the configuration in force, once per seed of its random draws." })
export class StartChannelLoadStudyInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field({ description: 'A named pattern: random-permutation, uniform-random, hot-region, …' })
  @IsString()
  @MaxLength(40)
  pattern!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The pattern's own settings: hot-region {fraction, first, count}, neighbour {hops}." })
  @IsOptional()
  @IsObject()
  patternParameters?: Record<string, unknown>;

  @Field(() => [Int], { description: 'The seeds, all different: one point each.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1_000)
  @IsInt({ each: true })
  @Min(0, { each: true })
  seeds!: number[];

  @Field(() => Int, { defaultValue: 1, description: 'Draws of the random pattern each point averages over (1–64).' })
  @IsInt()
  @Min(1)
  @Max(64)
  draws!: number;

  @Field(() => [Int], { nullable: true, description: 'Planes the traffic is offered in (default: all).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsInt({ each: true })
  planes?: number[];

  @Field(() => Int, { defaultValue: 0 })
  @IsInt()
  @Min(0)
  vc!: number;

  @Field(() => Int, { defaultValue: 10, description: 'Busiest channels each point keeps (1–100).' })
  @IsInt()
  @Min(1)
  @Max(100)
  top!: number;
}

@InputType()
export class StudiesInput {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsRowId('fabricId')
  fabricId?: number;

  @Field({ nullable: true, description: 'sweep, channel-load or drill-campaign' })
  @IsOptional()
  @IsIn(['sweep', 'channel-load', 'drill-campaign'])
  kind?: string;

  @Field(() => Int, { defaultValue: 50, description: 'How many, newest first (1–500).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
  first?: number;
}
