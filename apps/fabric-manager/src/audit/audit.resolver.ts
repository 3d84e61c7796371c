import { UseGuards } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RequiresRole } from '../auth/roles.decorator';
import { Connection, PageArgs } from '../graphql/pagination';
import { AuditEntry } from './audit-entry.entity';
import { AuditService } from './audit.service';
import { AuditEntryConnection, AuditEntryModel } from './dto/audit-entry.model';

@Resolver(() => AuditEntryModel)
@UseGuards(ApiKeyGuard)
@RequiresRole(Role.admin)
export class AuditResolver {
  constructor(private readonly audit: AuditService) {}

  @Query(() => AuditEntryConnection, { description: 'The audit log, oldest first (admin).' })
  auditEntries(@Args() page: PageArgs): Promise<Connection<AuditEntry>> {
    return this.audit.page(page);
  }
}
