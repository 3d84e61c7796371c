import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';
import { IsIn, IsOptional } from 'class-validator';
import { FLAT_ROUTINGS } from '@weft/fabric-model';
import { IsRowId } from '../../graphql/validators';

@InputType('FlatRoutingInput', { description: 'A flattened butterfly: its routing algorithm and allocator (paper 003 §3.1).' })
export class FlatRoutingSettingsInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field({ description: `The algorithm: ${FLAT_ROUTINGS.join(', ')}.` })
  @IsIn([...FLAT_ROUTINGS])
  routing!: string;

  @Field({ nullable: true, description: 'greedy or sequential; left out, the algorithm’s own (§3.1: sequential for ugal-s and clos-ad).' })
  @IsOptional()
  @IsIn(['greedy', 'sequential'])
  allocator?: string;
}

@ObjectType('FlatRouting', { description: 'A flattened butterfly’s routing settings.' })
export class FlatRoutingModel {
  @Field()
  routing!: string;
  @Field(() => String, { nullable: true, description: 'The allocator set, or none: the algorithm’s own.' })
  allocator!: string | null;
}
