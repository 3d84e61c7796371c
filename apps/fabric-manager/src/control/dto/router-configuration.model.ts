import { Field, Float, ID, InputType, Int, InterfaceType, ObjectType } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { IsRowId } from '../../graphql/validators';

@InputType()
export class RouterConfigurationInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field({ description: 'Router name, e.g. s0.r1.3.' })
  @IsString()
  @Length(1, 64)
  chip!: string;

  @Field(() => Int, { nullable: true, description: 'Generation number; default: the last one pushed.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  generation?: number;
}

@InputType()
export class GenerationDiffInput {
  @Field(() => ID)
  @IsRowId('fabricId')
  fabricId!: number;

  @Field(() => Int)
  @IsInt()
  @Min(1)
  from!: number;

  @Field(() => Int)
  @IsInt()
  @Min(1)
  to!: number;

  @Field(() => Int, { defaultValue: 100, description: 'Routers to list (1–500), in image order.' })
  @IsInt()
  @Min(1)
  @Max(500)
  first: number = 100;
}

@ObjectType('RegisterValue', { description: 'A register: its raw value and what it means.' })
export class RegisterPairModel {
  @Field(() => Int)
  first!: number;

  @Field(() => Int)
  second!: number;

  @Field()
  meaning!: string;
}

@ObjectType('PortMapEntry')
export class PortMapEntryModel {
  @Field(() => Int)
  logical!: number;

  @Field(() => Int)
  physical!: number;
}

@ObjectType('RoutingTableEntry', { description: 'One of the 8 entries of the up/side routing table; the highest matching entry wins (paper 000 §5.1).' })
export class TableEntryModel {
  @Field(() => Int)
  entry!: number;

  @Field(() => Int)
  location!: number;

  @Field(() => Int)
  mask!: number;

  @Field({ description: 'Destinations it matches, as a processor range.' })
  processors!: string;

  @Field({ description: 'Ports it may use, as ranges.' })
  ports!: string;

  @Field(() => Int)
  portCount!: number;
}

@ObjectType('VirtualRouterConfiguration')
export class VirtualRouterModel {
  @Field()
  tiles!: string;

  @Field({ description: 'Processors below this virtual router.' })
  processors!: string;

  @Field(() => RegisterPairModel, { description: 'Root detect: location and mask.' })
  rootDetect!: RegisterPairModel;

  @Field(() => RegisterPairModel, { description: 'Down route: shift and mask.' })
  downRoute!: RegisterPairModel;

  @Field(() => [PortMapEntryModel], { description: 'Logical → physical port map (used slots).' })
  portMap!: PortMapEntryModel[];

  @Field(() => [TableEntryModel])
  table!: TableEntryModel[];

  @Field({ description: 'The 8 of the 15 optional hash bits it hashes on.' })
  hashBits!: string;
}

@ObjectType('LinkSettings')
export class LinkSettingsModel {
  @Field(() => Int)
  laneRetryThreshold!: number;

  @Field(() => Float)
  forwardProgressTimeoutNs!: number;

  @Field(() => Float, { description: 'On ports facing a processor.' })
  leafForwardProgressTimeoutNs!: number;

  @Field(() => Int)
  maxPacketLength!: number;

  @Field(() => [Float])
  octantRatesGbps!: number[];
}

@ObjectType('RawRegisterWrite')
export class RawRegisterWriteModel {
  @Field()
  register!: string;

  @Field()
  target!: string;

  @Field(() => [Float])
  value!: number[];
}

@ObjectType('PortOutOfService', { description: 'A port the design cables but the generation does not use, and why.' })
export class PortOutOfServiceModel {
  @Field(() => Int)
  port!: number;

  @Field({ description: 'What the design cables it as: down, up or side.' })
  designedAs!: string;

  @Field({ description: "The design's far end of its cable, e.g. s0.r1.5:44." })
  farEnd!: string;

  @Field({ description: 'Why, e.g. "cable fault on s0.r1.3:40 (fault #3, recorded from an interrupt at 2026-11-22 14:02:11 UTC)".' })
  reason!: string;

  @Field(() => ID, { nullable: true, description: 'The fault that retired it, if a fault did (faults lists it until cleared).' })
  faultId!: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'The discovery finding that explains it, if one does: missing-cable, miswired-cable, unreachable-chip, …',
  })
  finding!: string | null;
}

/** Each family's router configuration type, by family (one row each). */
const ROUTER_CONFIGURATION_TYPES: Record<string, string> = {
  blackwidow: 'BlackWidowRouterConfiguration',
  bgl: 'BglNodeConfiguration',
  anton2: 'Anton2AsicConfiguration',
  'flattened-butterfly': 'FlatRouterConfiguration',
};

@InterfaceType('RouterConfiguration', {
  description:
    "A router's registers in one generation, decoded and raw. Each family's type adds the registers its chips have (… on BlackWidowRouterConfiguration).",
  resolveType: (value: { family: string }) => ROUTER_CONFIGURATION_TYPES[value.family],
})
export abstract class RouterConfigurationModel {
  @Field()
  chip!: string;

  @Field(() => Int)
  generation!: number;

  @Field({ description: 'The fabric family, which names the type.' })
  family!: string;

  @Field(() => [PortOutOfServiceModel], {
    description: 'Cabled ports this generation leaves unused, each with the fault or discovery finding it was computed around.',
  })
  outOfService!: PortOutOfServiceModel[];

  @Field(() => [RawRegisterWriteModel], { description: 'Every register write as the push makes it.' })
  raw!: RawRegisterWriteModel[];
}

@ObjectType('BlackWidowRouterConfiguration', {
  implements: () => [RouterConfigurationModel],
  description: "A YARC's registers (paper 000 §5, §7): port directions, virtual routers with root detect, down route, port map and table, link settings.",
})
export class BlackWidowRouterConfigurationModel extends RouterConfigurationModel {
  @Field(() => Int)
  rank!: number;

  @Field(() => Int)
  slice!: number;

  @Field()
  downlinks!: string;

  @Field()
  uplinks!: string;

  @Field()
  sidelinks!: string;

  @Field()
  unused!: string;

  @Field(() => [VirtualRouterModel])
  virtualRouters!: VirtualRouterModel[];

  @Field(() => LinkSettingsModel)
  link!: LinkSettingsModel;
}

@ObjectType('RegisterChange')
export class RegisterChangeModel {
  @Field()
  register!: string;

  @Field()
  target!: string;

  @Field(() => [Float], { nullable: true, description: 'Null: not written in the older generation.' })
  before!: number[] | null;

  @Field(() => [Float], { nullable: true, description: 'Null: not written in the newer generation.' })
  after!: number[] | null;

  @Field({ description: 'What changed, in the chip\'s terms, e.g. "port 40: sidelink → unused" or "processors 128–159: ports 40, 43, 45–46 → 43, 45–46".' })
  meaning!: string;
}

@ObjectType('RouterDiff')
export class RouterDiffModel {
  @Field()
  chip!: string;

  @Field(() => [RegisterChangeModel])
  changes!: RegisterChangeModel[];
}

@ObjectType('GenerationDiff')
export class GenerationDiffModel {
  @Field(() => Int)
  from!: number;

  @Field(() => Int)
  to!: number;

  @Field(() => Int, { description: 'Routers whose registers differ.' })
  changedRouters!: number;

  @Field(() => Int, { description: 'Register writes that differ, over all routers.' })
  changedRegisters!: number;

  @Field(() => [RouterDiffModel], { description: 'The first `first` of them.' })
  routers!: RouterDiffModel[];
}

@ObjectType('BglNeighbour', { description: "A BG/L node's neighbour register for one direction (paper 002 §2: where the hint bits clear)." })
export class BglNeighbourModel {
  @Field({ description: 'x+, x−, y+, y−, z+ or z−.' })
  direction!: string;

  @Field(() => [Int])
  coordinates!: number[];

  @Field({ description: 'The node at those coordinates.' })
  node!: string;
}

@ObjectType('BglHintRegisters', { description: "A dimension's two hint registers and the directions they give a packet from this node." })
export class BglHintRegistersModel {
  @Field()
  dimension!: string;

  @Field(() => Int, { description: 'The last coordinate a packet goes to in the + direction.' })
  cutoffPlus!: number;

  @Field(() => Int, { description: 'The first coordinate a packet goes to in the − direction.' })
  cutoffMinus!: number;

  @Field()
  meaning!: string;
}

@ObjectType('BglArbitration')
export class BglArbitrationModel {
  @Field(() => Int, { description: 'Per mille of cycles the receiver arbitrates by SLQ (§2), the rest at random.' })
  slqPermille!: number;

  @Field(() => Int, { description: 'Per mille of cycles a sender favours packets in the network over injection.' })
  inNetworkPriorityPermille!: number;

  @Field()
  packetArbitration!: string;
}

@ObjectType('BglBubble')
export class BglBubbleModel {
  @Field({ description: 'How packets on the bubble VC are accounted: full-size (the correction) or by size.' })
  accounting!: string;

  @Field()
  escapeOrder!: string;
}

@ObjectType('BglNodeConfiguration', {
  implements: () => [RouterConfigurationModel],
  description:
    "A BlueGene/L node's registers (paper 002 §2): neighbour coordinates and hint registers for minimal routing, arbitration and bubble policy, and the route-override table its software consults at injection.",
})
export class BglNodeConfigurationModel extends RouterConfigurationModel {
  @Field(() => [Int])
  coordinates!: number[];

  @Field(() => [Int], { description: 'Its control-network (JTAG) address: midplane, node card, card, ASIC.' })
  controlAddress!: number[];

  @Field(() => [BglNeighbourModel])
  neighbours!: BglNeighbourModel[];

  @Field(() => [BglHintRegistersModel])
  hints!: BglHintRegistersModel[];

  @Field(() => BglArbitrationModel)
  arbitration!: BglArbitrationModel;

  @Field(() => BglBubbleModel)
  bubble!: BglBubbleModel;

  @Field(() => [String], { description: 'The route-override table, a line per entry: the destinations it holds and the route chosen for them.' })
  routeOverrides!: string[];
}

@ObjectType('Anton2Datelines', { description: "A dimension's + and − dateline registers (paper 004 §2.5: between the same two nodes)." })
export class Anton2DatelinesModel {
  @Field()
  dimension!: string;

  @Field(() => Int, { description: 'The + dateline lies between this coordinate and the next.' })
  plus!: number;

  @Field(() => Int)
  minus!: number;

  @Field()
  meaning!: string;
}

@ObjectType('Anton2AsicConfiguration', {
  implements: () => [RouterConfigurationModel],
  description:
    "An Anton 2 ASIC's registers (paper 004 §2–3): coordinates and torus size, datelines, the route policy's (order, slice) combinations per destination, the SA2 arbiters' modes and inverse weights, and its multicast table.",
})
export class Anton2AsicConfigurationModel extends RouterConfigurationModel {
  @Field(() => [Int])
  coordinates!: number[];

  @Field(() => [Int])
  torusSize!: number[];

  @Field(() => [Int], { description: 'Its control-network address: where the push writes.' })
  controlAddress!: number[];

  @Field(() => [Anton2DatelinesModel])
  datelines!: Anton2DatelinesModel[];

  @Field(() => [String], { description: 'Destinations the route policy restricts, a line each, e.g. "x3.y2.z1: XZY/0, XZY/1 (2 of 12)".' })
  routePolicy!: string[];

  @Field({ description: 'How its SA2 arbiters arbitrate, and the range of their inverse weights.' })
  arbitration!: string;

  @Field(() => [String], { description: 'The multicast table, a line per entry: the endpoints that get a copy and the channels copies go on by.' })
  multicastTable!: string[];
}

@ObjectType('FlatRouterConfiguration', {
  implements: () => [RouterConfigurationModel],
  description:
    "A flattened butterfly router's registers (paper 003 §3; spec §3.4): its coordinates and routing mode, the port towards each coordinate of each dimension with doubled channels and detours round masked ones, its VC map and buffer split, and the routers it never takes as intermediates.",
})
export class FlatRouterConfigurationModel extends RouterConfigurationModel {
  @Field(() => [Int])
  coordinates!: number[];

  @Field(() => [Int], { description: 'Its service-network address: where the push writes.' })
  serviceAddress!: number[];

  @Field({ description: 'The routing algorithm and allocator, e.g. "ugal (greedy allocator); terminals on ports 0–31".' })
  routing!: string;

  @Field(() => [String], { description: 'A line a dimension: "coordinate→port", "+port" where a spare port doubles it, "masked, via m" for a detour.' })
  portMap!: string[];

  @Field({ description: "The VC of each hop index and each VC's buffer." })
  vcs!: string;

  @Field(() => [String], { description: 'Routers never taken as an intermediate (dead).' })
  excludedIntermediates!: string[];
}
