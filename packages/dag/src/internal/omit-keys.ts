import type { Json } from '../node.js';

/** The fields of `rec` other than `keys` (values assumed JSON, checked by the caller). */
export function omitKeys(rec: Record<string, unknown>, keys: readonly string[]): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(rec)) if (!keys.includes(k)) out[k] = v as Json;
  return out;
}
