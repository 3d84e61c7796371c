import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { ApiKey, Role } from '../auth/api-key.entity';
import { CurrentKey } from '../auth/current-key.decorator';
import { RequiresRole } from '../auth/roles.decorator';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { Connection, encodeCursor } from '../graphql/pagination';
import { FabricEventConnection, FabricEventModel } from './dto/fabric-event.model';
import { AcknowledgeEventInput, FabricEventStreamArgs, FabricEventsArgs } from './dto/fabric-events.args';
import { FabricEvent } from './fabric-event.entity';
import { EventsService } from './events.service';

@Resolver(() => FabricEventModel)
@UseGuards(ApiKeyGuard)
export class EventsResolver {
  constructor(private readonly eventsService: EventsService) {}

  @Query(() => FabricEventConnection, { description: 'Stored events, oldest first.' })
  events(@Args() args: FabricEventsArgs): Promise<Connection<FabricEvent>> {
    return this.eventsService.page(
      { fabricId: args.fabricId, kinds: args.kinds, chips: args.chips, unacknowledged: args.unacknowledged },
      args.first,
      args.after,
    );
  }

  @Mutation(() => FabricEventModel, { description: 'Acknowledges an event: who (the API key), when, and a note on what was done (operator).' })
  @RequiresRole(Role.operator)
  acknowledgeEvent(@Args('input') input: AcknowledgeEventInput, @CurrentKey() key: ApiKey): Promise<FabricEvent> {
    return this.eventsService.acknowledge(input.id, key.name, input.note ?? null);
  }

  @Subscription(() => FabricEventModel, {
    description:
      'Events as they are stored. With `after`, replays every matching event since that cursor first: a client that reconnects misses nothing and sees nothing twice.',
    resolve: (event: FabricEvent) => event,
  })
  fabricEvents(@Args() args: FabricEventStreamArgs): AsyncIterableIterator<FabricEvent> {
    return this.eventsService.subscribe({ fabricId: args.fabricId, kinds: args.kinds, chips: args.chips }, args.after);
  }

  @ResolveField(() => String, { description: 'Resume cursor: pass it as `after` to continue after this event.' })
  cursor(@Parent() event: FabricEvent): string {
    return encodeCursor(event.id);
  }
}
