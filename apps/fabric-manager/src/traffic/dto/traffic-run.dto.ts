import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { GraphQLJSONObject } from '../../graphql/json.scalar';
import { IsRowId } from '../../graphql/validators';

@InputType()
export class PacketSizeInput {
  @Field(() => Int)
  @IsInt()
  phits!: number;

  @Field(() => Float)
  @IsNumber()
  weight!: number;
}

@InputType({ description: 'A traffic run on an emulated fabric (see libs/emulator/src/traffic).' })
export class StartTrafficRunInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field({ description: 'steady-state (Bernoulli injection at `load`, warm-up, labelled sample, drain) or batch (`packets` per source).' })
  @IsIn(['steady-state', 'batch'])
  mode!: 'steady-state' | 'batch';

  @Field({
    description:
      'uniform-random, random-permutation, bit-complement, transpose, tornado, reverse-tornado, neighbour, hot-region, all-to-all, adversarial, matrix or request-response (BlackWidow request/response pairs).',
  })
  @IsString()
  @MaxLength(40)
  pattern!: string;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: "The pattern's own settings: hot-region {fraction, first, count}, neighbour {hops}, matrix {weights}.",
  })
  @IsOptional()
  @IsObject()
  patternParameters?: Record<string, unknown>;

  @Field(() => Int, {
    nullable: true,
    description: "Phits per packet: BlackWidow 4–19, BG/L 32–256 bytes in 32s, Anton 2 1–2 flits; default the fabric's smallest.",
  })
  @IsOptional()
  @IsInt()
  packetPhits?: number;

  @Field(() => [PacketSizeInput], { nullable: true, description: 'A distribution of packet sizes instead of one.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(16)
  @ValidateNested({ each: true })
  @Type(() => PacketSizeInput)
  packetSizes?: PacketSizeInput[];

  @Field(() => [Int], { nullable: true, description: 'Slices that carry the traffic; default [0].' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(4)
  slices?: number[];

  @Field(() => Int, { nullable: true, defaultValue: 1 })
  @IsOptional()
  @IsInt()
  seed?: number;

  @Field(() => Float, { nullable: true, description: 'Fraction of packets routed adaptively.' })
  @IsOptional()
  @IsNumber()
  adaptive?: number;

  @Field(() => Float, { nullable: true, description: 'Steady state: offered load, a fraction of the injection link.' })
  @IsOptional()
  @IsNumber()
  load?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  sampleCycles?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  warmupMinCycles?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  warmupMaxCycles?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  drainLimit?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(10)
  @Max(50_000_000)
  interval?: number;

  @Field(() => Int, { nullable: true, description: 'Batch: packets per source and slice.' })
  @IsOptional()
  @IsInt()
  packets?: number;

  @Field(() => Int, { nullable: true, description: 'Batch: give up after this many cycles.' })
  @IsOptional()
  @IsInt()
  limit?: number;
}

@ObjectType('TrafficRun')
export class TrafficRunModel {
  @Field(() => ID)
  id!: number;

  @Field(() => ID)
  fabricId!: number;

  @Field()
  pattern!: string;

  @Field({ description: 'running, finished or failed.' })
  state!: string;

  @Field(() => GraphQLJSONObject, { description: 'The request as run.' })
  parameters!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The report: latency (cycles and ns), accepted throughput, fairness, hops, utilisation, time series, books; or {error}.',
  })
  results!: Record<string, unknown> | null;

  @Field()
  startedAt!: Date;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;
}
