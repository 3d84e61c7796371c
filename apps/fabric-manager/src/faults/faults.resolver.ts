import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../auth/api-key.entity';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RequiresRole } from '../auth/roles.decorator';
import { FabricIdInput } from '../control/dto/fabric-id.input';
import { ClearFaultInput, DeclareFaultInput } from './dto/declare-fault.input';
import { FaultModel } from './dto/fault.model';
import { Fault } from './fault.entity';
import { FaultsService } from './faults.service';

@Resolver(() => FaultModel)
@UseGuards(ApiKeyGuard)
export class FaultsResolver {
  constructor(private readonly faultsService: FaultsService) {}

  @Query(() => [FaultModel], { description: 'Faults in force on a fabric.' })
  activeFaults(@Args('input') input: FabricIdInput): Promise<Fault[]> {
    return this.faultsService.active(input.fabricId);
  }

  @Mutation(() => FaultModel, { description: 'Declares a cable or router faulty: the next configuration routes around it (operator).' })
  @RequiresRole(Role.operator)
  declareFault(@Args('input') input: DeclareFaultInput): Promise<Fault> {
    return this.faultsService.declare(input);
  }

  @Mutation(() => FaultModel, { description: 'Clears a fault (cable replaced, router back in service) (operator).' })
  @RequiresRole(Role.operator)
  clearFault(@Args('input') input: ClearFaultInput): Promise<Fault> {
    return this.faultsService.clear(input.id);
  }
}
