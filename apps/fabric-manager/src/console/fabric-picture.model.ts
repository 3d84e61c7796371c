import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';

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
  @Field(() => [PictureGroupModel])
  groups!: PictureGroupModel[];
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
