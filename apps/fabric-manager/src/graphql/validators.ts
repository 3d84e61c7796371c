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

/** A YARC physical or logical port number, 0 to 63 (paper 000 §3: 64 tiles). */
export const IsPortNumber = () => applyDecorators(IsInt(), Min(0), Max(63));

/** A network slice, 0 to 3 (paper 000 §2.2). */
export const IsSlice = () => applyDecorators(IsOptional(), IsInt(), Min(0), Max(3));
