import { GitArgumentError } from '../errors.js';

/** The id of the empty tree, which git knows without storing it. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const OID = /^[0-9a-f]{40}$/;

export function isOid(value: unknown): value is string {
  return typeof value === 'string' && OID.test(value);
}

export function assertOid(argument: string, value: unknown): asserts value is string {
  if (!isOid(value)) throw new GitArgumentError(argument, `expected 40 lowercase hex digits, got ${JSON.stringify(value) ?? String(value)}`);
}
