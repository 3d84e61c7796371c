/**
 * The fault set a BlueGene/L node's software routes around (issue 55). Paper 002 §2: "The hardware
 * does not have the capability to route around 'dead' nodes or links, however, software can set
 * the hint bits appropriately so that such nodes are avoided." The control plane broadcasts the
 * fault set to every node at once — on BG/L over its tree network (§1: "a collective network"
 * reaching every node), which weft's emulator carries over the control network as one broadcast
 * write — and each node's software chooses, destination by destination, the route the route-
 * override rule gives around it (route-overrides.ts: the rule, as the control plane also proves
 * it), keeping the table it builds as it goes. One fault is then one write, not a table per node.
 *
 * Words (the `faultSet` register, chips/bgl-node.ts): `[relayPenaltyHops, deadCount, dead nodes…,
 * linkCount, node, direction, node, direction, …]` — dead nodes by torus index, ascending; a dead
 * link is the direction (0..5: x+, x−, y+, y−, z+, z−) leaving a node, each direction of a cable
 * listed on its own — then, in a last word, the tie rule the hint registers follow (0: 'plus', 1:
 * 'source-parity'; absent: 'plus', the words written before the rule was named), which the nodes'
 * rule must share to know where the hardware sends a destination half way round an even ring.
 * Empty: no fault set (the node routes by the hardware's hints, or by a table written to it).
 */
import { TIE_RULES, TieRule, Torus } from '../torus/torus';
import { TorusFaults, TorusLinkFault } from './torus-faults';

/** The register's words for `faults`, with the relay penalty the nodes' rule weighs relays by. */
export function bglFaultSetWords(relayPenaltyHops: number, faults: TorusFaults): number[] {
  if (faults.empty) return [];
  const words = [relayPenaltyHops, faults.nodes.length, ...faults.nodes, faults.links.length];
  for (const link of [...faults.links].sort((a, b) => a.node - b.node || a.direction - b.direction)) words.push(link.node, link.direction);
  words.push(TIE_RULES.indexOf(faults.torus.tieRule));
  return words;
}

/** The fault set `words` say on a torus, or what is wrong with them. */
export function parseBglFaultSet(
  torus: Torus,
  words: ArrayLike<number>,
): { relayPenaltyHops: number; tieRule: TieRule; faults: TorusFaults } | { problem: string } {
  const whole = (v: number) => Number.isInteger(v);
  if (words.length < 3) return { problem: `[relayPenaltyHops, deadCount, dead nodes…, linkCount, links…], got ${words.length} words` };
  const relayPenaltyHops = words[0];
  if (!whole(relayPenaltyHops) || relayPenaltyHops < 0) return { problem: `the relay penalty must be a whole number of hops, got ${relayPenaltyHops}` };
  const deadCount = words[1];
  if (!whole(deadCount) || deadCount < 0 || 2 + deadCount >= words.length)
    return { problem: `dead node count ${deadCount} does not fit ${words.length} words` };
  const dead: number[] = [];
  for (let i = 0; i < deadCount; i++) {
    const n = words[2 + i];
    if (!whole(n) || n < 0 || n >= torus.size) return { problem: `dead node ${i}: ${n} is not a node of the ${torus.shape.join('×')} torus` };
    if (i > 0 && n <= dead[i - 1]) return { problem: `dead nodes must ascend: ${n} follows ${dead[i - 1]}` };
    dead.push(n);
  }
  const linkAt = 2 + deadCount;
  const linkCount = words[linkAt];
  const linksEnd = linkAt + 1 + 2 * linkCount;
  if (!whole(linkCount) || linkCount < 0 || (linksEnd !== words.length && linksEnd + 1 !== words.length))
    return { problem: `link count ${linkCount} does not fit the ${words.length - linkAt - 1} words after it (two a link, then the tie rule)` };
  const tieCode = linksEnd < words.length ? words[linksEnd] : 0;
  const tieRule = TIE_RULES[tieCode];
  if (!whole(tieCode) || tieRule === undefined) return { problem: `the tie rule is 0 (plus) or 1 (source-parity), got ${tieCode}` };
  const ruled = tieRule === torus.tieRule ? torus : new Torus(torus.shape, tieRule);
  const links: TorusLinkFault[] = [];
  for (let i = 0; i < linkCount; i++) {
    const node = words[linkAt + 1 + 2 * i];
    const direction = words[linkAt + 2 + 2 * i];
    if (!whole(node) || node < 0 || node >= ruled.size || !whole(direction) || direction < 0 || direction > 5)
      return { problem: `dead link ${i}: (${node}, ${direction}) is not a node and direction (0..5) of the torus` };
    links.push({ node, direction });
  }
  return { relayPenaltyHops, tieRule, faults: new TorusFaults(ruled, dead, links) };
}
