import { UseGuards } from '@nestjs/common';
import { Field, Float, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { StoreOwnerService } from '../database/store-owner.service';

@ObjectType('ActiveManager')
class ActiveManagerModel {
  @Field(() => Int)
  pid!: number;

  @Field()
  host!: string;

  @Field(() => String, { nullable: true, description: 'Where its API answers; send writes there.' })
  url!: string | null;

  @Field(() => Float, { description: 'Its term: when it claimed the store (ms since the epoch), the fencing token the fabric process checks.' })
  term!: number;

  @Field(() => Float, { description: 'How long ago it last renewed its lease, in ms, when this manager last looked (0 for itself).' })
  silentMs!: number;
}

@ObjectType('Manager')
class ManagerModel {
  @Field({ description: 'active: holds the store and writes; standby: serves reads and takes over when the lease lapses; deposed: taken over, stopping.' })
  role!: string;

  @Field(() => Int, { description: 'The lease (WEFT_LEASE_MS): how long the active manager may go unrenewed before a standby takes over.' })
  leaseMs!: number;

  @Field(() => ActiveManagerModel, { nullable: true, description: 'The active manager: this one, or the one a standby watches.' })
  active!: ActiveManagerModel | null;

  @Field(() => Date, { nullable: true, description: 'When this manager took over as a standby, if it did.' })
  tookOverAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'How long its take-over work took (connect to the fabric, attach, start recovery), in ms.' })
  takeoverMs!: number | null;
}

/** Which manager of an active/standby pair answers, and which one writes. */
@Resolver(() => ManagerModel)
@UseGuards(ApiKeyGuard)
export class ManagerResolver {
  constructor(private readonly owner: StoreOwnerService) {}

  @Query(() => ManagerModel, { description: 'This manager: active or standby, and the active one of the pair.' })
  manager(): ManagerModel {
    return {
      role: this.owner.role(),
      leaseMs: this.owner.leaseMs(),
      active: this.owner.activeManager(),
      tookOverAt: this.owner.takeover?.at ?? null,
      takeoverMs: this.owner.takeover?.ms ?? null,
    };
  }
}
