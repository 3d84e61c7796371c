// An X×Y×Z torus of InfiniBand switches for ibsim (its net file: ibnetdiscover's format) and the
// torus-2QoS configuration that seeds OpenSM's discovery of it — the tori weft's BlueGene/L and
// Anton 2 fixtures have, one switch a node and one HCA on each switch (the node's processor).
// Switch (x, y, z) is "S-x-y-z" with GUID 0x100000 + x + X·(y + Y·z) (ibsim numbers switches in the
// file's order from 0x100000); ports 1–6 are x+, x−, y+, y−, z+, z−; port 7 its HCA "H-x-y-z";
// the subnet manager's own HCA "SM" is on port 8 of S-0-0-0, first in the file (ibsim's SM port).
// Usage: node torus-net.mjs X Y Z out-directory
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argv, exit, stderr } from 'node:process';

const [X, Y, Z] = argv.slice(2, 5).map(Number);
const out = argv[5];
if (![X, Y, Z].every((k) => Number.isInteger(k) && k >= 3) || !out) {
  stderr.write('usage: node torus-net.mjs X Y Z out-directory (every dimension at least 3)\n');
  exit(2);
}
const shape = [X, Y, Z];
const name = (c) => `S-${c.join('-')}`;
const step = (c, d, s) => c.map((v, e) => (e === d ? (v + s + shape[e]) % shape[e] : v));
const lines = ['switchguid=0x100000', 'caguid=0x200000', '', 'Hca 1 "SM"', '[1] "S-0-0-0"[8]', ''];
for (let z = 0; z < Z; z++)
  for (let y = 0; y < Y; y++)
    for (let x = 0; x < X; x++) {
      const c = [x, y, z];
      lines.push(`Switch 8 "${name(c)}"`);
      for (let d = 0; d < 3; d++) {
        lines.push(`[${2 * d + 1}] "${name(step(c, d, 1))}"[${2 * d + 2}]`);
        lines.push(`[${2 * d + 2}] "${name(step(c, d, -1))}"[${2 * d + 1}]`);
      }
      lines.push(`[7] "H-${c.join('-')}"[1]`);
      if (x + y + z === 0) lines.push('[8] "SM"[1]');
      lines.push('');
    }
for (let z = 0; z < Z; z++)
  for (let y = 0; y < Y; y++) for (let x = 0; x < X; x++) lines.push(`Hca 1 "H-${[x, y, z].join('-')}"`, `[1] "S-${[x, y, z].join('-')}"[7]`, '');
const guid = (x, y, z) => `0x${(0x100000 + x + X * (y + Y * z)).toString(16)}`;
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'torus.net'), `${lines.join('\n')}\n`);
writeFileSync(
  join(out, 'torus-2QoS.conf'),
  [
    `torus ${X} ${Y} ${Z}`,
    `xp_link ${guid(0, 0, 0)} ${guid(1, 0, 0)}`,
    `yp_link ${guid(0, 0, 0)} ${guid(0, 1, 0)}`,
    `zp_link ${guid(0, 0, 0)} ${guid(0, 0, 1)}`,
    '',
  ].join('\n'),
);
