import { InvalidOptionError } from '../errors.js';

/**
 * A plain snapshot of an options object taken at a public entry point: each own field read once, so a getter, a proxy
 * or a later mutation cannot change what is checked and used, and one that throws is an {@link InvalidOptionError}
 * instead of its own exception. `undefined` gives `{}` unless the argument is required.
 */
export function plainOptions<T extends object>(value: unknown, option: string, expected: string, required = false): T {
  if (value === undefined && !required) return {} as T;
  if (typeof value !== 'object' || value === null) throw new InvalidOptionError(option, value, expected);
  try {
    if (Array.isArray(value)) throw new InvalidOptionError(option, '(an array)', expected);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = (value as Record<string, unknown>)[key];
    return out as T;
  } catch (err) {
    if (err instanceof InvalidOptionError) throw err;
    throw new InvalidOptionError(option, '(unreadable: a getter or a proxy threw)', expected);
  }
}
