import { Field, ID, InputType } from '@nestjs/graphql';
import { IsRowId } from '../../graphql/validators';

@InputType()
export class DeleteFabricInput {
  @Field(() => ID)
  @IsRowId('id')
  id!: number;
}
