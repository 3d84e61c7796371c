import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator';
import { IsRowId } from '../../graphql/validators';

@InputType('Anton2PatternInput', { description: 'A traffic pattern whose channel loads set the arbiters’ inverse weights (paper 004 §3.3).' })
export class Anton2PatternInput {
  @Field({ description: 'uniform, tornado, reverse-tornado, neighbour or matrix.' })
  @IsString()
  @Length(1, 32)
  name!: string;

  @Field(() => Int, { nullable: true, description: 'neighbour: a random node at most this many hops away along each dimension.' })
  @IsOptional()
  @IsInt()
  hops?: number;

  @Field(() => [[Float]], { nullable: true, description: 'matrix: row s, column t weighs what ASIC s sends to ASIC t, both by torus index (x fastest).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(4096)
  matrix?: number[][];
}

@InputType('MulticastDestinationInput')
export class MulticastDestinationInput {
  @Field({ description: 'The destination ASIC, e.g. x1.y2.z3.' })
  @IsString()
  @Length(1, 64)
  chip!: string;

  @Field(() => [Int], { description: 'Its endpoint adapters (0–22) that each get a copy.' })
  @IsArray()
  @ArrayMaxSize(23)
  @IsInt({ each: true })
  endpoints!: number[];
}

@InputType('MulticastGroupInput')
export class MulticastGroupInput {
  @Field(() => Int, { description: 'The group id packets name (its table keys are group × 2 + tree).' })
  @IsInt()
  @Min(0)
  group!: number;

  @Field({ description: 'The source ASIC its trees are rooted at.' })
  @IsString()
  @Length(1, 64)
  source!: string;

  @Field(() => [MulticastDestinationInput])
  @IsArray()
  @ArrayMaxSize(4096)
  @ValidateNested({ each: true })
  @Type(() => MulticastDestinationInput)
  destinations!: MulticastDestinationInput[];
}

@InputType('Anton2RoutingSettingsInput', { description: 'An Anton 2 machine’s routing settings; a part left out keeps what is in force.' })
export class Anton2RoutingSettingsInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field(() => [Anton2PatternInput], { nullable: true, description: 'One or two patterns (§3.3: N = 2, chosen by each packet’s pattern field).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => Anton2PatternInput)
  arbiterPatterns?: Anton2PatternInput[];

  @Field(() => [MulticastGroupInput], { nullable: true, description: 'Every multicast group (the list replaces the groups in force; empty: none).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(65_536)
  @ValidateNested({ each: true })
  @Type(() => MulticastGroupInput)
  multicastGroups?: MulticastGroupInput[];
}

@InputType('Anton2RoutingInput')
export class Anton2RoutingInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;
}

@ObjectType('Anton2Pattern')
export class Anton2PatternModel {
  @Field()
  name!: string;

  @Field(() => Int, { nullable: true })
  hops?: number;

  @Field(() => [[Float]], { nullable: true })
  matrix?: number[][];
}

@ObjectType('MulticastDestination')
export class MulticastDestinationModel {
  @Field()
  chip!: string;

  @Field(() => [Int])
  endpoints!: number[];
}

@ObjectType('MulticastTree', { description: 'One of a group’s two trees: the union of its dimension-order routes in one (order, slice).' })
export class MulticastTreeModel {
  @Field({ description: 'Dimension order, e.g. XYZ.' })
  order!: string;

  @Field(() => Int)
  slice!: number;

  @Field(() => Int, { description: 'Torus channels the tree uses.' })
  torusHops!: number;
}

@ObjectType('MulticastGroup')
export class MulticastGroupModel {
  @Field(() => Int)
  group!: number;

  @Field()
  source!: string;

  @Field(() => [MulticastDestinationModel])
  destinations!: MulticastDestinationModel[];

  @Field(() => [MulticastTreeModel], {
    description: 'Its trees in the configuration in force (packets alternate between them); empty where the faults leave none.',
  })
  trees!: MulticastTreeModel[];

  @Field(() => Int, { nullable: true, description: 'Torus hops of unicasting to each destination ASIC instead.' })
  unicastHops!: number | null;
}

@ObjectType('Anton2Routing', { description: 'What an operator chose of an Anton 2 machine’s routing, and what it came to in the configuration in force.' })
export class Anton2RoutingModel {
  @Field(() => [Anton2PatternModel])
  arbiterPatterns!: Anton2PatternModel[];

  @Field(() => [MulticastGroupModel])
  multicastGroups!: MulticastGroupModel[];

  @Field(() => [String], { description: 'What the faults took from the groups.' })
  unserved!: string[];

  @Field(() => Int, { description: 'Entries in the fullest multicast table.' })
  tableEntriesMax!: number;

  @Field(() => Int, { description: 'Entries a table holds (spec §2.3).' })
  tableCapacity!: number;
}
