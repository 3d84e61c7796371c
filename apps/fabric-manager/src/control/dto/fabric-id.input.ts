import { Field, ID, InputType } from '@nestjs/graphql';
import { IsRowId } from '../../graphql/validators';

@InputType()
export class FabricIdInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;
}
