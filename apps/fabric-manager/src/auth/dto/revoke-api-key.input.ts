import { Field, ID, InputType } from '@nestjs/graphql';
import { IsInt, Min } from 'class-validator';
import { Type } from 'class-transformer';

@InputType()
export class RevokeApiKeyInput {
  @Field(() => ID)
  @Type(() => Number)
  @IsInt({ message: 'id must be a numeric key id' })
  @Min(1)
  id!: number;
}
