import { InvalidIdError } from './errors.js';
import { describeValue } from './internal/describe-value.js';

const SAFE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Asserts that `id` is a node id that is safe as one git path segment: 1-128 characters of `[A-Za-z0-9._-]`,
 * not starting with `.`, without `..`, not ending in `.` or `.lock`.
 *
 * @param id - The candidate id.
 * @returns `id`, typed as a string.
 * @throws {@link InvalidIdError} saying what is wrong.
 * @example
 * ```ts
 * validateNodeId('3f2a9c0b1d4e5f67'); // ok
 * validateNodeId('../etc');           // throws InvalidIdError
 * ```
 */
export function validateNodeId(id: unknown): string {
  if (typeof id !== 'string') throw new InvalidIdError({ id: describeValue(id), reason: `expected a string, got ${typeof id}` });
  if (!SAFE.test(id)) throw new InvalidIdError({ id, reason: id.length === 0 ? 'empty' : id.length > 128 ? 'longer than 128 characters' : 'character outside [A-Za-z0-9._-] or leading "."' });
  if (id.includes('..')) throw new InvalidIdError({ id, reason: 'contains ".."' });
  if (id.endsWith('.') || id.endsWith('.lock')) throw new InvalidIdError({ id, reason: 'ends with "." or ".lock"' });
  return id;
}
