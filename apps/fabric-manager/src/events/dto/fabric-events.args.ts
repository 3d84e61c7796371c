import { ArgsType, Field, ID, InputType, IntersectionType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsEnum, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { PageArgs } from '../../graphql/pagination';
import { FabricEventKind } from '../fabric-event-kind';

@ArgsType()
export class FabricEventFilterArgs {
  @Field(() => ID, { nullable: true, description: 'Only events of this fabric.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'fabricId must be a numeric fabric id' })
  @Min(1)
  fabricId?: number;

  @Field(() => [FabricEventKind], { nullable: true, description: 'Only events of these kinds.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @IsEnum(FabricEventKind, { each: true })
  kinds?: FabricEventKind[];

  @Field(() => [String], { nullable: true, description: 'Only events about these chips (by name).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  chips?: string[];
}

@ArgsType()
class AcknowledgementFilterArgs {
  @Field(() => Boolean, { nullable: true, description: 'true: only events nobody has acknowledged; false: only acknowledged ones.' })
  @IsOptional()
  @IsBoolean()
  unacknowledged?: boolean;
}

/** A page of stored events, with the same filters as the stream (and whether acknowledged). */
@ArgsType()
export class FabricEventsArgs extends IntersectionType(IntersectionType(PageArgs, FabricEventFilterArgs, ArgsType), AcknowledgementFilterArgs, ArgsType) {}

@InputType()
export class AcknowledgeEventInput {
  @Field(() => ID)
  @Type(() => Number)
  @IsInt({ message: 'id must be a numeric event id' })
  @Min(1)
  id!: number;

  @Field({ nullable: true, description: 'What was done about it (e.g. "cable replacement filed: ticket 4711").' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}

@ArgsType()
export class FabricEventStreamArgs extends FabricEventFilterArgs {
  @Field(() => String, { nullable: true, description: 'Resume after this event cursor: every later matching event is replayed first, in order.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;
}
