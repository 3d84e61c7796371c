import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { IsRowId } from '../graphql/validators';

@InputType()
export class FabricPictureInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field(() => String, { nullable: true, description: 'auto (default: cells above 5,000 chips), chips (every chip, however many) or cells.' })
  @IsOptional()
  @IsIn(['auto', 'chips', 'cells'])
  detail?: 'auto' | 'chips' | 'cells' | null;

  @Field(() => Int, { nullable: true, description: 'A cell of the aggregated picture, opened: its chips, the cables touching them and their far ends.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  cell?: number | null;
}

@ObjectType('PictureGroup', { description: 'A box of the picture that groups chips (a rank of a slice, a plane of the cube, a block of routers).' })
export class PictureGroupModel {
  @Field()
  label!: string;
  @Field(() => Float)
  x!: number;
  @Field(() => Float)
  y!: number;
  @Field(() => Float)
  width!: number;
  @Field(() => Float)
  height!: number;
}

@ObjectType('FabricPicture', {
  description:
    'A whole fabric as the console draws it, in its family’s layout: chips and cables as parallel lists (index i of each list is chip or cable i), with every cable’s state and the faults in force.',
})
export class FabricPictureModel {
  @Field(() => ID)
  fabricId!: number;
  @Field()
  family!: string;
  @Field({ description: 'How the family is laid out, for the legend.' })
  layout!: string;
  @Field(() => [String], { description: 'Two endpoints of the fabric by the names a route trace takes (its first and last), as examples.' })
  traceExamples!: string[];
  @Field(() => [PictureGroupModel])
  groups!: PictureGroupModel[];
  @Field({ description: 'true: each chip of the lists is a cell of neighbouring chips and each cable a bundle of the cables between two cells.' })
  aggregated!: boolean;
  @Field(() => Int, { nullable: true, description: 'The cell opened, where one is.' })
  cell!: number | null;
  @Field(() => String, { nullable: true })
  cellLabel!: string | null;
  @Field(() => Int)
  totalChips!: number;
  @Field(() => Int)
  totalCables!: number;
  @Field(() => [Int], { description: 'Each chip’s cell in the aggregated picture (detail: cells), which cell: opens.' })
  chipCells!: number[];
  @Field(() => [Int], { description: 'Chips each mark stands for: 1, or a cell’s.' })
  chipSizes!: number[];
  @Field(() => [Int], { description: 'Cables each line stands for: 1, or a bundle’s.' })
  cableCounts!: number[];
  @Field(() => [String])
  chipNames!: string[];
  @Field(() => [String], { description: '"router" or "endpoint".' })
  chipKinds!: string[];
  @Field(() => [String], { description: 'expected, discovered, missing, unexpected — or faulty where a router fault is in force.' })
  chipStates!: string[];
  @Field(() => [Float])
  chipX!: number[];
  @Field(() => [Float])
  chipY!: number[];
  @Field(() => [Int], { description: 'Each chip’s group (index in groups).' })
  chipGroups!: number[];
  @Field(() => [Int], { description: 'Each cable’s first end: chip index.' })
  cableA!: number[];
  @Field(() => [Int])
  cableAPort!: number[];
  @Field(() => [Int])
  cableB!: number[];
  @Field(() => [Int])
  cableBPort!: number[];
  @Field(() => [String])
  cableClasses!: string[];
  @Field(() => [String], {
    description: 'expected, discovered, missing, unexpected — or faulty where a cable fault (or a lane fault) is in force on either end.',
  })
  cableStates!: string[];
}
