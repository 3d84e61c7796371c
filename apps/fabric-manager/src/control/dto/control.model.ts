import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { CableEndModel } from '../../fabrics/dto/link.model';

@ObjectType('DiscoveryFinding')
export class FindingModel {
  @Field({ description: 'missing-cable, extra-cable, miswired-cable, unreachable-chip, unexpected-chip or degraded-link.' })
  kind!: string;

  @Field()
  message!: string;

  @Field(() => [CableEndModel])
  ends!: CableEndModel[];
}

@ObjectType('DiscoveryReport')
export class DiscoveryReportModel {
  @Field(() => Int)
  chipsFound!: number;

  @Field(() => Int)
  cablesFound!: number;

  @Field(() => Int, { description: 'Maintenance requests sent.' })
  requests!: number;

  @Field(() => Int)
  wallMs!: number;

  @Field(() => [FindingModel])
  findings!: FindingModel[];
}

@ObjectType('ConfigGeneration')
export class ConfigGenerationModel {
  @Field(() => ID)
  id!: number;

  @Field(() => Int)
  number!: number;

  @Field()
  engine!: string;

  @Field({ description: 'computed, rejected (failed verification: never pushed), pushing, pushed or failed.' })
  state!: string;

  @Field()
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  pushedAt!: Date | null;
}

@ObjectType('UnreachableProcessors', {
  description:
    'What a configuration cannot reach: live processors cut off from one slice (their R1 router or its cable is out of service), live destinations no route reaches from a source, a dead router’s terminals, a multicast group’s destinations left out.',
})
export class UnreachableProcessorsModel {
  @Field({ description: 'processors, destinations, terminals or multicast.' })
  kind!: string;

  @Field(() => Int, { description: 'The slice (plane) they are cut off in; 0 in a family with one.' })
  slice!: number;

  @Field({ description: 'What, said: processor numbers as ranges, e.g. "96–127"; "source → destinations"; the dead router’s terminals; the group and why.' })
  processors!: string;

  @Field(() => String, { nullable: true, description: 'destinations: the live source no route leaves for them.' })
  source!: string | null;

  @Field(() => [String], { nullable: true, description: 'destinations: the live destinations its routes do not reach.' })
  destinations!: string[] | null;
}

@ObjectType('ConfigurationResult')
export class ConfigurationResultModel {
  @Field(() => ConfigGenerationModel)
  generation!: ConfigGenerationModel;

  @Field()
  verified!: boolean;

  @Field(() => [String], { description: 'What the verifier found wrong, if anything.' })
  violations!: string[];

  @Field(() => [String], { description: 'Where the engine had to compromise (lost path diversity, merged entries).' })
  problems!: string[];

  @Field(() => [FindingModel])
  findings!: FindingModel[];

  @Field(() => [UnreachableProcessorsModel], { description: 'Live processors the faults cut off from a slice: named, not proven.' })
  unreachable!: UnreachableProcessorsModel[];

  @Field(() => Int, {
    description:
      'Live endpoints (a processor in a slice) proven to reach every live destination of their slice. With `unreachable`, they are every live endpoint: one left out any other way is a violation, and the generation is not pushed.',
  })
  endpointsProven!: number;

  @Field(() => Int, { description: 'Register writes pushed.' })
  writes!: number;

  @Field({
    description: 'Nothing differed from the generation in force: no generation was stored or pushed, and `generation` is the one in force.',
  })
  unchanged!: boolean;
}

@ObjectType('Push', { description: 'One push of a generation into the fabric, recorded phase by phase.' })
export class PushModel {
  @Field(() => ID)
  id!: number;

  @Field(() => Int, { description: 'Generation pushed.' })
  generation!: number;

  @Field(() => Int, { nullable: true, description: 'Generation the fabric held before (null: none).' })
  fromGeneration!: number | null;

  @Field(() => Int)
  phases!: number;

  @Field(() => Int)
  phasesDone!: number;

  @Field(() => Int, { description: 'Register writes planned.' })
  writes!: number;

  @Field({ description: 'running, done, failed, or recovered (finished after a restart by reading the fabric back).' })
  state!: string;

  @Field()
  detail!: string;

  @Field()
  startedAt!: Date;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;
}
