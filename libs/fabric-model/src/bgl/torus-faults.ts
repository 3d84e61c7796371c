/**
 * The faults a BlueGene/L routing computation avoids: dead nodes and dead links, a link being one
 * direction of one cable (a cable dead both ways is two). A dead node takes its twelve link
 * directions with it. Kept as flags per node and per node × direction for walks, and as coordinate
 * lists for the compiler's arc tests.
 */
import type { Torus } from '../torus/torus';

export interface TorusLinkFault {
  /** The node the link leaves. */
  readonly node: number;
  /** Its direction, 0..5 in the hint-bit order x+, x−, y+, y−, z+, z−. */
  readonly direction: number;
}

export class TorusFaults {
  readonly deadNode: Uint8Array;
  /** `deadLink[node * 6 + direction]`: the link leaving `node` that way is dead (dead nodes apart). */
  readonly deadLink: Uint8Array;
  readonly nodes: readonly number[];
  readonly links: readonly TorusLinkFault[];

  constructor(
    readonly torus: Torus,
    deadNodes: readonly number[],
    deadLinks: readonly TorusLinkFault[] = [],
  ) {
    this.deadNode = new Uint8Array(torus.size);
    this.deadLink = new Uint8Array(torus.size * 6);
    for (const n of deadNodes) {
      if (!Number.isInteger(n) || n < 0 || n >= torus.size) throw new Error(`dead node ${n} is not a node of the ${torus.shape.join('×')} torus`);
      this.deadNode[n] = 1;
    }
    for (const l of deadLinks) {
      if (!Number.isInteger(l.node) || l.node < 0 || l.node >= torus.size || !Number.isInteger(l.direction) || l.direction < 0 || l.direction > 5) {
        throw new Error(`dead link ${JSON.stringify(l)} is not a link of the ${torus.shape.join('×')} torus`);
      }
      this.deadLink[l.node * 6 + l.direction] = 1;
    }
    this.nodes = [...new Set(deadNodes)].sort((a, b) => a - b);
    // A link of a dead node is covered by the node; a link listed twice counts once.
    const seen = new Set<number>();
    this.links = deadLinks.filter((l) => {
      const key = l.node * 6 + l.direction;
      if (seen.has(key) || this.deadNode[l.node] || this.deadNode[torus.neighbour(l.node, l.direction)]) return false;
      seen.add(key);
      return true;
    });
  }

  /** Whether a packet can cross the link leaving `node` in `direction`: both ends alive, the link too. */
  linkUsable(node: number, direction: number): boolean {
    return this.deadLink[node * 6 + direction] === 0 && this.deadNode[node] === 0 && this.deadNode[this.torus.neighbour(node, direction)] === 0;
  }

  get empty(): boolean {
    return this.nodes.length === 0 && this.links.length === 0;
  }
}
