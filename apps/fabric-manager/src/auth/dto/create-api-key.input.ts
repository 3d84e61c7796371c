import { Field, InputType } from '@nestjs/graphql';
import { IsEnum, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Role } from '../api-key.entity';

@InputType()
export class CreateApiKeyInput {
  @Field({ description: 'What the key is for, e.g. "maintenance-automation".' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/^[\w .@-]+$/, { message: 'name may hold letters, digits, spaces and . _ @ -' })
  name!: string;

  @Field(() => Role)
  @IsEnum(Role)
  role!: Role;
}
