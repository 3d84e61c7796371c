/**
 * What differs between two images of a chip, register by register, in the chip's terms: any
 * family's diff (issue 55: the engine layer's, not one family's).
 */
export interface RegisterChange {
  readonly register: string;
  /** Where it is written: tiles and logical port or table entry, ports, or octant. */
  readonly target: string;
  /** Null: not written in that generation (the router was not configured, or the slot unused). */
  readonly before: readonly number[] | null;
  readonly after: readonly number[] | null;
  /** What changed, in the chip's terms: "port 40: sidelink → unused", "processors 128–159: ports
   * 40, 43, 45–46 → 43, 45–46". */
  readonly meaning: string;
}

export interface RouterDiff {
  chip: string;
  changes: RegisterChange[];
}

/** Each router of either image with its image in both (undefined where an image has none), in
 * `next`'s order and then the routers only `previous` configures: the units a diff is made of. */
export function* routerPairs<R extends { readonly name: string }>(
  previous: { readonly routers: readonly R[] },
  next: { readonly routers: readonly R[] },
): Generator<[string, R | undefined, R | undefined]> {
  const before = new Map(previous.routers.map((r) => [r.name, r]));
  for (const router of next.routers) yield [router.name, before.get(router.name), router];
  const names = new Set(next.routers.map((r) => r.name));
  for (const router of previous.routers) if (!names.has(router.name)) yield [router.name, router, undefined];
}

/** What differs between one router's registers in two images; undefined when nothing does. */
