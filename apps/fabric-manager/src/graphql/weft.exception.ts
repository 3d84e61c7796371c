/**
 * Base of every domain exception: services throw a subclass carrying a string-enum code, and
 * graphql/graphql-errors.ts maps each code to a GraphQL error code, once.
 */
export abstract class WeftException<Code extends string> extends Error {
  protected constructor(
    readonly code: Code,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export function assertUnreachable(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}
