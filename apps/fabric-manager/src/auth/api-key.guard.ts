import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { ManagerErrorCode, ManagerException } from '../database/manager.exception';
import { StoreOwnerService } from '../database/store-owner.service';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { AuditService } from '../audit/audit.service';
import { ApiKey, Role } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';
import { AuthErrorCode, AuthException } from './auth.exception';
import { GraphQLContext, bearerToken } from './graphql-context';
import { ROLE_KEY, roleSatisfies } from './roles.decorator';

/** Checks the API key and the role a resolver method needs; a refused mutation is audited. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    private readonly audit: AuditService,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const gql = GqlExecutionContext.create(context);
    const ctx = gql.getContext<GraphQLContext>();
    const needed = this.reflector.getAllAndOverride<Role | undefined>(ROLE_KEY, [context.getHandler(), context.getClass()]) ?? Role.viewer;
    const apiKey: ApiKey = ctx.apiKey ?? (await this.keys.verify(bearerToken(ctx)));
    ctx.apiKey = apiKey;
    if (!roleSatisfies(apiKey.role, needed)) {
      const info = gql.getInfo<{ fieldName: string; operation: { operation: string } }>();
      if (info.operation.operation === 'mutation') {
        await this.audit.record(apiKey, info.fieldName, gql.getArgs(), 'FORBIDDEN');
      }
      throw new AuthException(AuthErrorCode.RoleInsufficient, `${info.fieldName} needs the ${needed} role; this key is ${apiKey.role}`);
    }
    // Only the active manager writes (a standby serves reads): refused before anything is done.
    const refusal = this.owner?.refusal();
    if (refusal && gql.getInfo<{ operation: { operation: string } }>().operation.operation === 'mutation') {
      throw new ManagerException(ManagerErrorCode.NotActive, refusal, { activeUrl: this.owner!.activeManager()?.url ?? null });
    }
    return true;
  }
}
