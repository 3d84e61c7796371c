import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Role } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyModel, CreatedApiKey } from './dto/api-key.model';
import { CreateApiKeyInput } from './dto/create-api-key.input';
import { RevokeApiKeyInput } from './dto/revoke-api-key.input';
import { RequiresRole } from './roles.decorator';

@Resolver(() => ApiKeyModel)
@UseGuards(ApiKeyGuard)
@RequiresRole(Role.admin)
export class ApiKeysResolver {
  constructor(private readonly keys: ApiKeysService) {}

  @Query(() => [ApiKeyModel], { description: 'Every API key, revoked ones included (admin).' })
  apiKeys(): Promise<ApiKeyModel[]> {
    return this.keys.list();
  }

  @Mutation(() => CreatedApiKey, { description: 'Issues a key; the response is the only place it appears (admin).' })
  createApiKey(@Args('input') input: CreateApiKeyInput): Promise<CreatedApiKey> {
    return this.keys.create(input.name, input.role);
  }

  @Mutation(() => ApiKeyModel, { description: 'Revokes a key at once (admin).' })
  revokeApiKey(@Args('input') input: RevokeApiKeyInput): Promise<ApiKeyModel> {
    return this.keys.revoke(input.id);
  }
}
