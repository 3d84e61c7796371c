import { SetMetadata } from '@nestjs/common';
import { Role } from './api-key.entity';

export const ROLE_KEY = 'weft:role';

/** The least role a resolver method needs; `viewer` when absent. */
export const RequiresRole = (role: Role) => SetMetadata(ROLE_KEY, role);

const RANK: Record<Role, number> = { [Role.viewer]: 0, [Role.operator]: 1, [Role.admin]: 2 };

export function roleSatisfies(held: Role, needed: Role): boolean {
  return RANK[held] >= RANK[needed];
}
