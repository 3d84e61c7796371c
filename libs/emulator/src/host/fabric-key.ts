/**
 * The credential a fabric process and its managers share (issue 54: the fabric process trusted
 * anyone who could reach its socket). It never crosses the socket: the fabric process sends each
 * connection a fresh challenge, and a manager answers with an HMAC of the challenge and its term
 * under the key — proving it holds the key, and binding the term it claims to this connection.
 * Kept as the admin key is: a file only its owner may read, made at the fabric process's first start.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Where `weft fabric serve` and a manager look for the key unless told otherwise. */
export const DEFAULT_FABRIC_KEY_FILE = 'data/fabric-key';

const KEY_BYTES = 32;
const MIN_KEY_BYTES = 16;

export class FabricKeyError extends Error {}

/** The key in `file` (hex), refused if the file is missing, too short, or readable by others than its owner. */
export function readFabricKey(file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new FabricKeyError(`cannot read the fabric key ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new FabricKeyError(`the fabric key ${file} may be read by others than its owner: chmod 600 ${file}`);
  }
  if (!/^[0-9a-f]+$/i.test(text) || text.length % 2 !== 0 || text.length / 2 < MIN_KEY_BYTES) {
    throw new FabricKeyError(`the fabric key ${file} is not at least ${MIN_KEY_BYTES} bytes written in hex`);
  }
  return Buffer.from(text, 'hex');
}

/** The key in `file`, made (random, owner-only) where there is none yet. */
export function ensureFabricKey(file: string): { key: Buffer; created: boolean } {
  try {
    statSync(file);
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return { key: readFabricKey(file), created: true };
  }
  return { key: readFabricKey(file), created: false };
}

/** A fresh challenge for one connection. */
export function fabricChallenge(): string {
  return randomBytes(32).toString('hex');
}

/** A manager's answer to `challenge`, saying hello with `term`. */
export function helloProof(key: Buffer, challenge: string, term: number): string {
  return createHmac('sha256', key).update(`weft-fabric-hello\n${challenge}\n${term}`).digest('hex');
}

/** Whether `proof` answers `challenge` for `term` under `key` (compared in constant time). */
export function proofMatches(key: Buffer, challenge: string, term: number, proof: unknown): boolean {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return timingSafeEqual(Buffer.from(helloProof(key, challenge, term), 'hex'), Buffer.from(proof, 'hex'));
}
