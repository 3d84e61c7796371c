import { Field, Float, InputType, Int, ObjectType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { FLAT_MAX_RADIX, FLAT_SPARE_USES } from '@weft/fabric-model';

@InputType('FlatDesignInput', {
  description:
    'A flattened butterfly design, as an installation file gives one: k and n (radix defaults to n(k − 1) + 1), or radix and terminals (paper 003 §5.1.2 sizes it).',
})
export class FlatDesignInput {
  @Field(() => Int, { nullable: true, description: 'Terminals a router, and routers along each dimension.' })
  @IsOptional()
  @IsInt()
  k?: number;

  @Field(() => Int, { nullable: true, description: 'Digits of a terminal address: n − 1 router dimensions.' })
  @IsOptional()
  @IsInt()
  n?: number;

  @Field(() => Int, { nullable: true, description: 'Ports on the router chip.' })
  @IsOptional()
  @IsInt()
  @Min(3)
  @Max(FLAT_MAX_RADIX)
  radix?: number;

  @Field(() => Int, { nullable: true, description: 'Terminals wanted, with radix instead of k and n.' })
  @IsOptional()
  @IsInt()
  terminals?: number;

  @Field({ nullable: true, description: `What spare ports do (Fig. 14): ${FLAT_SPARE_USES.join(', ')}.` })
  @IsOptional()
  @IsIn([...FLAT_SPARE_USES])
  spareUse?: string;
}

@InputType('CostReportInput', { description: 'Terminals to cost each topology at, or a flattened butterfly design to cost cable by cable (one of the two).' })
export class CostReportInput {
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(1 << 20)
  terminals?: number;

  @Field(() => FlatDesignInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => FlatDesignInput)
  design?: FlatDesignInput;

  @Field(() => Int, { defaultValue: 64, description: 'Ports of the routers the topologies are compared on (Table 3: 64).' })
  @IsInt()
  @Min(4)
  @Max(FLAT_MAX_RADIX)
  radix!: number;

  @Field({ defaultValue: false, description: 'Draw cost and power per node against N as SVG (Fig. 11, Fig. 15).' })
  @IsBoolean()
  plot!: boolean;
}

@ObjectType('CostLinkGroup', { description: 'Channels of one kind in one place of a topology.' })
export class CostLinkGroupModel {
  @Field({ description: 'terminal, backplane or cable.' })
  kind!: string;
  @Field({ description: 'Where in the topology: dimension 1, levels 1–2, …' })
  where!: string;
  @Field(() => Int, { description: 'Channels, one a direction.' })
  channels!: number;
  @Field(() => Float, { description: 'Average cable length with its overhead (0 on a backplane).' })
  meters!: number;
  @Field(() => Float, { description: 'Repeaters a channel passes, on average.' })
  repeaters!: number;
  @Field(() => Float)
  dollars!: number;
  @Field(() => Float)
  watts!: number;
}

@ObjectType('TopologyCost')
export class TopologyCostModel {
  @Field({ description: 'flattened butterfly, folded Clos, butterfly or hypercube.' })
  topology!: string;
  @Field()
  shape!: string;
  @Field(() => Int)
  terminals!: number;
  @Field(() => Int)
  routers!: number;
  @Field(() => Int, { description: 'Channels between routers, one a direction (§4.3: 992 for the 1K flattened butterfly, 2048 for the folded Clos).' })
  interRouterChannels!: number;
  @Field(() => [CostLinkGroupModel])
  links!: CostLinkGroupModel[];
  @Field(() => Float)
  routerDollars!: number;
  @Field(() => Float)
  linkDollars!: number;
  @Field(() => Float)
  dollarsPerNode!: number;
  @Field(() => Float)
  switchWatts!: number;
  @Field(() => Float)
  linkWatts!: number;
  @Field(() => Float)
  wattsPerNode!: number;
}

@ObjectType('CostCurvePoint')
export class CostCurvePointModel {
  @Field(() => Int)
  terminals!: number;
  @Field()
  topology!: string;
  @Field(() => Float)
  dollarsPerNode!: number;
  @Field(() => Float)
  wattsPerNode!: number;
}

@ObjectType('CostReport', {
  description: 'Cost and power of a flattened butterfly against the folded Clos, butterfly and hypercube of as many terminals (paper 003 §4.3, §5.3).',
})
export class CostReportModel {
  @Field(() => Int)
  terminals!: number;
  @Field(() => TopologyCostModel, { nullable: true, description: 'The design asked for, costed cable by cable from its packaging.' })
  design!: TopologyCostModel | null;
  @Field(() => [TopologyCostModel], { description: 'The paper’s model at this N, for each topology.' })
  topologies!: TopologyCostModel[];
  @Field(() => [CostCurvePointModel], { description: 'Cost and power per node from 128 to 64K terminals.' })
  curve!: CostCurvePointModel[];
  @Field(() => [String], { description: 'Every assumption the paper leaves open, as the figures use it.' })
  assumptions!: string[];
  @Field(() => String, { nullable: true, description: 'The curve drawn, when asked for.' })
  plotSvg!: string | null;
}
