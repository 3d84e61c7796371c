import { InstallationIssue } from './installation-error';

/**
 * A small schema checker that walks parsed JSON and records every problem with its JSON path, so
 * that one pass reports all the mistakes in a file rather than the first.
 */
export class JsonChecker {
  readonly issues: InstallationIssue[] = [];

  fail(path: string, message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }

  object(value: unknown, path: string, allowed: readonly string[]): Record<string, unknown> | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return this.fail(path, `must be an object, got ${describe(value)}`);
    }
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail(`${path}.${key}`, `unknown field (allowed: ${allowed.join(', ')})`);
    }
    return value as Record<string, unknown>;
  }

  array(value: unknown, path: string, maxLength = 100_000): unknown[] | undefined {
    if (!Array.isArray(value)) return this.fail(path, `must be an array, got ${describe(value)}`);
    if (value.length > maxLength) return this.fail(path, `must have at most ${maxLength} entries, got ${value.length}`);
    return value;
  }

  string(value: unknown, path: string, pattern?: RegExp, patternText?: string): string | undefined {
    if (typeof value !== 'string') return this.fail(path, `must be a string, got ${describe(value)}`);
    if (value.length === 0 || value.length > 200) return this.fail(path, 'must be 1 to 200 characters long');
    if (pattern && !pattern.test(value)) return this.fail(path, `must be ${patternText ?? `of the form ${pattern}`}, got "${value}"`);
    return value;
  }

  integer(value: unknown, path: string, min: number, max: number): number | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return this.fail(path, `must be an integer, got ${describe(value)}`);
    }
    if (value < min || value > max) return this.fail(path, `must be between ${min} and ${max}, got ${value}`);
    return value;
  }

  number(value: unknown, path: string, min: number, max: number): number | undefined {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.fail(path, `must be a number, got ${describe(value)}`);
    }
    if (value < min || value > max) return this.fail(path, `must be between ${min} and ${max}, got ${value}`);
    return value;
  }

  oneOf<T extends string>(value: unknown, path: string, options: readonly T[]): T | undefined {
    if (typeof value !== 'string' || !options.includes(value as T)) {
      return this.fail(path, `must be one of ${options.map((o) => `"${o}"`).join(', ')}, got ${describe(value)}`);
    }
    return value as T;
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
