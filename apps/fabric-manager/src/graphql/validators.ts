import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** A numeric row id passed as a GraphQL ID. */
export const IsRowId = (name: string) =>
  applyDecorators(
    Type(() => Number),
    IsInt({ message: `${name} must be a numeric id` }),
    Min(1, { message: `${name} must be a numeric id` }),
  );

/** A chip name as the fabric designs spell them: `s0.r1.3`, `s2.r3.1.17`, `p42`. */
export const IsChipName = () =>
  applyDecorators(IsString(), MaxLength(64), Matches(/^[a-z0-9][a-z0-9.]*$/, { message: 'chip must be a chip name such as "s0.r1.3" or "p17"' }));

/** The most ports a chip model of any family has (YARC: 64; wave 2's flattened-butterfly routers
 * go to a configurable radix): a bound on the input only. Whether the named chip has the port is
 * checked against its own port count, from its datasheet through the fabric's design. */
export const MAX_CHIP_PORTS = 1024;

/** A port number of a chip: a whole number below MAX_CHIP_PORTS (the chip's own count is checked where the chip is known). */
export const IsPortNumber = () => applyDecorators(IsInt(), Min(0), Max(MAX_CHIP_PORTS - 1));

/** The most independent planes of a fabric (BlackWidow: 4 slices), and the most ranks or dimensions: bounds on the input only. */
export const MAX_PLANES = 64;

/** A plane of a fabric (BlackWidow: a slice), optional: a plane the fabric does not have matches nothing. */
export const IsPlane = () => applyDecorators(IsOptional(), IsInt(), Min(0), Max(MAX_PLANES - 1));
