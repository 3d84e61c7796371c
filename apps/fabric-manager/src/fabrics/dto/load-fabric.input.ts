import { Field, InputType } from '@nestjs/graphql';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

@InputType()
export class LoadFabricInput {
  @Field({ nullable: true, description: 'A fixture under fixtures/, e.g. "blackwidow/bw-r1.5-288".' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(300)
  @Matches(/^[\w./-]+$/, { message: 'fixture must be a relative path such as "blackwidow/bw-r1.5-288"' })
  fixture?: string;

  @Field({ nullable: true, description: 'An installation file (JSON text, format weft-installation/1) given inline.' })
  @IsOptional()
  @IsString()
  @MaxLength(4 * 1024 * 1024)
  installation?: string;

  @Field({ nullable: true, description: "Name for the fabric; the installation file's name when absent." })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'name may hold letters, digits, ".", "_" and "-"' })
  name?: string;
}
