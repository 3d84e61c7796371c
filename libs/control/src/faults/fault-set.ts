/**
 * The faults a configuration routes around, as typed values: cable ends (chip, port) and whole
 * routers (issue 35: faults no longer travel as "chip:port" strings parsed back). Family-neutral;
 * a router fault takes every one of its ports with it, by the port count its family gives.
 */

/** A port of a chip: one end of a cable. */
export interface PortRef {
  readonly chip: string;
  readonly port: number;
}

export class FaultSet {
  static readonly NONE = new FaultSet(new Map(), new Set());

  private keyText: string | null = null;

  private constructor(
    /** Faulty ports by chip. */
    private readonly byChip: ReadonlyMap<string, ReadonlySet<number>>,
    /** Routers out of service. */
    readonly routers: ReadonlySet<string>,
  ) {}

  /**
   * From fault records (a link fault names one end; a router fault the router): a router's ports
   * are all out with it, `portCountOf(chip)` of them.
   */
  static of(faults: readonly { kind: string; chip: string; port: number | null }[], portCountOf: (chip: string) => number): FaultSet {
    const byChip = new Map<string, Set<number>>();
    const routers = new Set<string>();
    const add = (chip: string, port: number) => {
      let set = byChip.get(chip);
      if (!set) byChip.set(chip, (set = new Set()));
      set.add(port);
    };
    for (const fault of faults) {
      if (fault.kind === 'link' && fault.port !== null) add(fault.chip, fault.port);
      if (fault.kind === 'router') {
        routers.add(fault.chip);
        for (let p = 0; p < portCountOf(fault.chip); p++) add(fault.chip, p);
      }
    }
    return byChip.size === 0 && routers.size === 0 ? FaultSet.NONE : new FaultSet(byChip, routers);
  }

  /** Whether the port at `end` is out of service. */
  has(end: PortRef): boolean {
    return this.byChip.get(end.chip)?.has(end.port) ?? false;
  }

  hasPort(chip: string, port: number): boolean {
    return this.byChip.get(chip)?.has(port) ?? false;
  }

  /** The faulty ports of one chip. */
  portsOf(chip: string): ReadonlySet<number> | undefined {
    return this.byChip.get(chip);
  }

  get portCount(): number {
    let n = 0;
    for (const set of this.byChip.values()) n += set.size;
    return n;
  }

  *ports(): IterableIterator<PortRef> {
    for (const [chip, set] of this.byChip) for (const port of set) yield { chip, port };
  }

  /** The faulty ports here that are not faulty in `other`. */
  portsNotIn(other: FaultSet): PortRef[] {
    const out: PortRef[] = [];
    for (const [chip, set] of this.byChip) for (const port of set) if (!other.hasPort(chip, port)) out.push({ chip, port });
    return out;
  }

  /** The same faults without router `chip` and its ports (it is being probed, say). */
  without(chip: string): FaultSet {
    if (!this.routers.has(chip) && !this.byChip.has(chip)) return this;
    const byChip = new Map(this.byChip);
    byChip.delete(chip);
    return new FaultSet(byChip, new Set([...this.routers].filter((r) => r !== chip)));
  }

  /** A canonical text of the set: equal sets, equal keys (for remembering per fault set). */
  get key(): string {
    if (this.keyText === null) {
      const ports = [...this.byChip]
        .map(([chip, set]) => `${chip}:${[...set].sort((a, b) => a - b).join('.')}`)
        .sort()
        .join(',');
      this.keyText = `${ports}|${[...this.routers].sort().join(',')}`;
    }
    return this.keyText;
  }
}

/** The fault set of fault records on a fabric as known: a router's ports as many as its chip has. */
export function faultsOn(
  chips: ReadonlyMap<string, { readonly portCount: number }>,
  faults: readonly { kind: string; chip: string; port: number | null }[],
): FaultSet {
  return FaultSet.of(faults, (chip) => chips.get(chip)?.portCount ?? 0);
}
