import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from '../../graphql/json.scalar';
import { ConnectionType } from '../../graphql/pagination';

@ObjectType('AuditEntry')
export class AuditEntryModel {
  @Field(() => ID)
  id!: number;

  @Field(() => Int, { nullable: true })
  apiKeyId!: number | null;

  @Field()
  actor!: string;

  @Field()
  action!: string;

  @Field(() => GraphQLJSONObject)
  arguments!: Record<string, unknown>;

  @Field({ description: '"ok" or the error code the mutation ended with.' })
  outcome!: string;

  @Field()
  at!: Date;
}

export const AuditEntryConnection = ConnectionType(AuditEntryModel, 'AuditEntry');
