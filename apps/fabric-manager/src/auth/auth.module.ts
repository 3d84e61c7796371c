import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ApiKey } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysResolver } from './api-keys.resolver';
import { ApiKeysService } from './api-keys.service';
import { CurrentKeyResolver } from './current-key.resolver';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), AuditModule],
  providers: [ApiKeysService, ApiKeyGuard, ApiKeysResolver, CurrentKeyResolver],
  exports: [ApiKeysService, ApiKeyGuard, AuditModule],
})
export class AuthModule {}
