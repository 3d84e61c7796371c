// What the command line needs to find the service's store and fixtures, kept apart from the
// service's modules so that a command talking to the running service loads none of them.
import { resolve } from 'node:path';

/** The store, unless WEFT_DATABASE says otherwise. */
export const DEFAULT_DATABASE = './data/weft.sqlite';

/** The shipped installation and drill files (the same folder from the sources and from dist). */
export const FIXTURES_ROOT = resolve(__dirname, '../../../../fixtures').replace(/dist[\\/]fixtures$/, 'fixtures');

/** A start refused for a reason the operator can act on: said as it is, without a stack trace. */
export class StartupError extends Error {}
