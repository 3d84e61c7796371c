/**
 * The channel-dependency check (issue 35; Dally & Seitz 1987: routing is deadlock-free when the
 * graph of dependencies between the channels it uses is acyclic): every way a packet may go under
 * the configuration — every allowed port, for every destination, from every source — adds an edge
 * from the channel (and VC) it arrives on to the one it may leave by. The graph is proven acyclic,
 * or one cycle is returned, named by chips, ports and VCs. Per VC, as a packet keeps its class
 * unless the family's routing moves it (then the edge crosses classes).
 */
import { ChipPort, channelName, Forwarding } from './forwarding';

export interface DependencyReport {
  readonly acyclic: boolean;
  /** Channel–VC pairs some packet may use. */
  readonly channels: number;
  readonly dependencies: number;
  /** A cycle of channels, each named `chip:port vc N`, the first repeated at the end; null when acyclic. */
  readonly cycle: readonly string[] | null;
}

export async function channelDependencies(
  forwarding: Forwarding,
  options: {
    vcs?: readonly number[];
    /** Awaited between destinations: a service gives its event loop back here. */
    pace?: () => Promise<void>;
  } = {},
): Promise<DependencyReport> {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const id = (channel: ChipPort, vc: number) => {
    const name = `${channelName(channel)} vc ${vc}`;
    let n = ids.get(name);
    if (n === undefined) {
      n = names.length;
      ids.set(name, n);
      names.push(name);
    }
    return n;
  };
  const edges = new Map<number, Set<number>>();
  let dependencies = 0;
  const depend = (from: number, to: number) => {
    let set = edges.get(from);
    if (!set) edges.set(from, (set = new Set()));
    if (!set.has(to)) {
      set.add(to);
      dependencies++;
    }
  };
  for (const vc of options.vcs ?? forwarding.vcs) {
    for (const { number: destination } of forwarding.endpoints) {
      if (options.pace) await options.pace();
      // Every state (input port, VC) a packet to this destination may reach, from every source.
      const seen = new Set<string>();
      const queue: { at: ChipPort; vc: number; state: string | undefined; from: number }[] = [];
      for (const plane of forwarding.planes) {
        for (const { number: source } of forwarding.endpoints) {
          if (source === destination) continue;
          const injection = forwarding.injection(source, plane);
          const at = injection && forwarding.peer(injection);
          if (injection && at) queue.push({ at, vc, state: undefined, from: id(injection, vc) });
        }
      }
      for (let i = 0; i < queue.length; i++) {
        const { at, vc: arrivedOn, state, from } = queue[i];
        if (forwarding.endpointOf(at.chip) !== null) continue;
        const decision = forwarding.decide(at, { destination, vc: arrivedOn, hashBits: null, state });
        if (decision.kind !== 'forward') continue;
        for (const choice of decision.choices) {
          const out = { chip: at.chip, port: choice.port };
          const to = id(out, decision.vc);
          depend(from, to);
          const far = forwarding.peer(out);
          const key = `${to}/${far ? channelName(far) : ''}/${choice.state ?? ''}`;
          if (far && !seen.has(key)) {
            seen.add(key);
            queue.push({ at: far, vc: decision.vc, state: choice.state, from: to });
          }
        }
      }
    }
  }
  const cycle = findCycle(names.length, edges);
  return { acyclic: cycle === null, channels: names.length, dependencies, cycle: cycle && cycle.map((n) => names[n]) };
}

/** One cycle of the graph (iterative depth-first search), first node repeated at the end; null if none. */
function findCycle(nodes: number, edges: ReadonlyMap<number, ReadonlySet<number>>): number[] | null {
  const state = new Uint8Array(nodes); // 0 unvisited, 1 on the stack, 2 done
  const parent = new Int32Array(nodes).fill(-1);
  for (let root = 0; root < nodes; root++) {
    if (state[root]) continue;
    const stack: { node: number; next: Iterator<number> }[] = [{ node: root, next: (edges.get(root) ?? new Set<number>()).values() }];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const step = top.next.next();
      if (step.done) {
        state[top.node] = 2;
        stack.pop();
        continue;
      }
      const to = step.value;
      if (state[to] === 1) {
        const cycle = [to];
        for (let n = top.node; n !== to; n = parent[n]) cycle.push(n);
        cycle.push(to);
        return cycle.reverse();
      }
      if (state[to] === 0) {
        state[to] = 1;
        parent[to] = top.node;
        stack.push({ node: to, next: (edges.get(to) ?? new Set<number>()).values() });
      }
    }
  }
  return null;
}
