import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { GraphQLJSONObject } from '../../graphql/json.scalar';
import { IsChipName, IsRowId } from '../../graphql/validators';

@InputType()
export class RouteTraceInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field({ description: 'The sending endpoint, by name (e.g. p0).' })
  @IsChipName()
  source!: string;

  @Field({ description: 'The receiving endpoint, by name (e.g. p287).' })
  @IsChipName()
  destination!: string;

  @Field(() => Int, { defaultValue: 0, description: 'The plane it is sent in (BlackWidow: the slice).' })
  @IsInt()
  @Min(0)
  @Max(63)
  plane: number = 0;

  @Field(() => Int, { defaultValue: 0, description: 'The VC it is sent on (BlackWidow: 0 requests, 1 responses).' })
  @IsInt()
  @Min(0)
  @Max(15)
  vc: number = 0;

  @Field(() => Int, {
    nullable: true,
    description: "The header's optional hash bits (BlackWidow: 15 bits, the h bit set); none: the hash of input port and destination alone.",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(0x7fff)
  hashBits?: number;
}

@ObjectType('RouteChoice', { description: 'A port the registers allow, and the share of packets with random hash bits that take it.' })
export class RouteChoiceModel {
  @Field(() => Int)
  port!: number;

  @Field(() => Float)
  share!: number;
}

@ObjectType('RouteHop', { description: 'One router crossed: where the packet came in, where it leaves, on which VC.' })
export class RouteHopModel {
  @Field()
  chip!: string;

  @Field(() => Int)
  inPort!: number;

  @Field(() => Int)
  outPort!: number;

  @Field(() => Int)
  vc!: number;

  @Field({ description: 'The chip and port at the far end of the cable it leaves by.' })
  farEnd!: string;

  @Field({ description: 'How the registers decided, in the chip’s terms.' })
  how!: string;

  @Field(() => [RouteChoiceModel], { description: 'Every port the registers allow here (more than one where routing spreads).' })
  choices!: RouteChoiceModel[];
}

@ObjectType('RouteTrace', { description: 'The path a packet takes under the configuration in force (the last generation pushed).' })
export class RouteTraceModel {
  @Field(() => Int, { description: 'The generation whose registers were read.' })
  generation!: number;

  @Field()
  source!: string;

  @Field()
  destination!: string;

  @Field(() => Int)
  plane!: number;

  @Field({ description: 'delivered or dropped.' })
  outcome!: string;

  @Field({ description: 'Why it was dropped; empty when delivered.' })
  reason!: string;

  @Field(() => String, { nullable: true, description: 'The endpoint port it leaves by.' })
  injection!: string | null;

  @Field(() => [RouteHopModel])
  hops!: RouteHopModel[];
}

@InputType()
export class ChannelInput {
  @Field()
  @IsChipName()
  chip!: string;

  @Field(() => Int)
  @IsInt()
  @Min(0)
  @Max(1023)
  port!: number;
}

@InputType()
export class ChannelLoadInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field({ nullable: true, description: 'A named pattern: uniform-random, random-permutation, bit-complement, transpose, tornado, neighbour, hot-region, …' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  pattern?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The pattern's own settings: hot-region {fraction, first, count}, neighbour {hops}." })
  @IsOptional()
  @IsObject()
  patternParameters?: Record<string, unknown>;

  @Field(() => [[Float]], { nullable: true, description: 'A traffic matrix instead of a pattern: row s, column d weighs what endpoint s sends to d.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(40_000)
  matrix?: number[][];

  @Field(() => Int, { defaultValue: 1, description: 'Seed of the random patterns.' })
  @IsInt()
  seed: number = 1;

  @Field(() => Int, { defaultValue: 1, description: 'Draws of a random pattern to average over (1–64).' })
  @IsInt()
  @Min(1)
  @Max(64)
  draws: number = 1;

  @Field(() => [Int], { nullable: true, description: 'Planes the traffic is offered in (default: all).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsInt({ each: true })
  @Min(0, { each: true })
  planes?: number[];

  @Field(() => Int, { defaultValue: 0 })
  @IsInt()
  @Min(0)
  @Max(15)
  vc: number = 0;

  @Field(() => Int, { defaultValue: 20, description: 'Busiest channels to list (1–1000).' })
  @IsInt()
  @Min(1)
  @Max(1000)
  top: number = 20;

  @Field(() => ChannelInput, { nullable: true, description: 'A channel (by its sending end) whose crossing flows to list.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChannelInput)
  crossing?: ChannelInput;
}

@ObjectType('ChannelLoadEntry')
export class ChannelLoadEntryModel {
  @Field({ description: 'The channel, by its sending end (chip:port).' })
  channel!: string;

  @Field()
  farEnd!: string;

  @Field(() => Float, { description: 'Expected load, as a fraction of one injection link’s rate.' })
  load!: number;
}

@ObjectType('LoadBin')
export class LoadBinModel {
  @Field(() => Float)
  from!: number;

  @Field(() => Float)
  to!: number;

  @Field(() => Int)
  channels!: number;
}

@ObjectType('FlowShare')
export class FlowShareModel {
  @Field()
  source!: string;

  @Field()
  destination!: string;

  @Field(() => Int)
  plane!: number;

  @Field(() => Float, { description: 'The share of the flow that crosses the channel.' })
  share!: number;
}

@ObjectType('ChannelLoadReport', {
  description: 'Expected channel loads of a traffic pattern under the configuration in force: each source offers one unit per plane.',
})
export class ChannelLoadReportModel {
  @Field(() => Int)
  generation!: number;

  @Field()
  pattern!: string;

  @Field(() => Int)
  flows!: number;

  @Field(() => Int)
  channels!: number;

  @Field(() => Float, { description: 'The busiest channel’s load: it saturates when sources inject at 1 / maximum.' })
  maximum!: number;

  @Field(() => Float)
  mean!: number;

  @Field(() => Float, { description: 'Offered traffic the configuration cannot deliver.' })
  undeliverable!: number;

  @Field(() => [LoadBinModel])
  histogram!: LoadBinModel[];

  @Field(() => [ChannelLoadEntryModel], { description: 'The busiest channels, busiest first.' })
  top!: ChannelLoadEntryModel[];

  @Field(() => [FlowShareModel], { description: 'With `crossing`: the flows that cross that channel.' })
  crossing!: FlowShareModel[];
}

@ObjectType('AnalysisRun', { description: 'An analysis started off the request path (startChannelLoad): its progress, then its outcome.' })
export class AnalysisRunModel {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'What it computes: channel-load.' })
  kind!: string;

  @Field({ description: 'running, done, failed or cancelled.' })
  state!: string;

  @Field(() => Float, { description: 'The share of its work done, 0 to 1.' })
  progress!: number;

  @Field(() => String, { nullable: true, description: 'Why it failed.' })
  error!: string | null;

  @Field(() => ChannelLoadReportModel, { nullable: true, description: 'The channel load, once done.' })
  channelLoad!: ChannelLoadReportModel | null;
}

@InputType()
export class ChannelDependenciesInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field(() => [Int], { nullable: true, description: 'VCs to check (default: all).' })
  @IsOptional()
  @IsArray()
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(15, { each: true })
  vcs?: number[];
}

@ObjectType('ChannelDependencyReport', { description: 'The channel-dependency graph of the configuration in force: acyclic (deadlock-free), or one cycle.' })
export class ChannelDependencyReportModel {
  @Field(() => Int)
  generation!: number;

  @Field()
  acyclic!: boolean;

  @Field(() => Int)
  channels!: number;

  @Field(() => Int)
  dependencies!: number;

  @Field(() => [String], { nullable: true, description: 'A cycle of channels (chip:port vc N), the first repeated at the end.' })
  cycle!: string[] | null;
}

@InputType()
export class GenerationImageInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field(() => Int, { nullable: true, description: 'Generation number; default: the last one pushed.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  generation?: number;

  @Field(() => [String], { nullable: true, description: 'Only these chips (default: every chip the image configures).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  chips?: string[];
}

@ObjectType('GenerationImage', { description: "A generation's register image as readable text: its golden form, which loads back to the same image." })
export class GenerationImageModel {
  @Field(() => Int)
  generation!: number;

  @Field({ description: 'The text format, e.g. weft-image/1.' })
  format!: string;

  @Field(() => Int)
  chips!: number;

  @Field()
  text!: string;
}
