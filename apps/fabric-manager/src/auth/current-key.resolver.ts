import { UseGuards } from '@nestjs/common';
import { Query, Resolver } from '@nestjs/graphql';
import { ApiKey } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { CurrentKey } from './current-key.decorator';
import { ApiKeyModel } from './dto/api-key.model';

/** Any key may ask who it is: the console offers only what the key's role may do. */
@Resolver(() => ApiKeyModel)
@UseGuards(ApiKeyGuard)
export class CurrentKeyResolver {
  @Query(() => ApiKeyModel, { description: 'The key this request is made with: its name and role.' })
  currentKey(@CurrentKey() key: ApiKey): ApiKey {
    return key;
  }
}
