import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Role } from '../api-key.entity';

registerEnumType(Role, {
  name: 'Role',
  description: 'viewer: queries and subscriptions; operator: also mutations that change fabrics, faults, drills; admin: also keys.',
});

@ObjectType('ApiKey')
export class ApiKeyModel {
  @Field(() => ID)
  id!: number;

  @Field()
  name!: string;

  @Field(() => Role)
  role!: Role;

  @Field({ description: 'Public part of the key, to tell keys apart.' })
  prefix!: string;

  @Field()
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  revokedAt!: Date | null;
}

@ObjectType()
export class CreatedApiKey {
  @Field({ description: 'The key itself. It is shown this once; only its hash is stored.' })
  key!: string;

  @Field(() => ApiKeyModel)
  apiKey!: ApiKeyModel;
}
