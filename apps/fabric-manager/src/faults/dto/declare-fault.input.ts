import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsChipName, IsPortNumber, IsRowId } from '../../graphql/validators';

@InputType()
export class DeclareFaultInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field({ description: '"link" (a cable, named by one end) or "router".' })
  @IsIn(['link', 'router'])
  kind!: 'link' | 'router';

  @Field()
  @IsChipName()
  chip!: string;

  @Field(() => Int, { nullable: true, description: 'The port of `chip` the cable is on (link faults).' })
  @IsOptional()
  @IsPortNumber()
  port?: number;

  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;
}

@InputType()
export class ClearFaultInput {
  @Field(() => ID)
  @IsRowId('id')
  id!: number;
}
