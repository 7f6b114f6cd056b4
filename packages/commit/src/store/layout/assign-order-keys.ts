import { orderKeyBetween } from './order-key.js';

/**
 * Order keys for `keys` (item keys in commit order): an item keeps the order key it had in the parent commit
 * when that keeps the sequence increasing; every other item gets a fresh key between its neighbours.
 * So appended items take the next integers and a summary slots before its folded run without renaming anything.
 */
export function assignOrderKeys(keys: readonly string[], previous: (key: string) => string | undefined): string[] {
  const kept: (string | null)[] = new Array<string | null>(keys.length).fill(null);
  let last: string | null = null;
  for (let i = 0; i < keys.length; i++) {
    const old = previous(keys[i] as string);
    if (old !== undefined && (last === null || old > last)) {
      kept[i] = old;
      last = old;
    }
  }
  // A kept key must also stay below every later kept key: true by construction (strictly increasing).
  const nextKept: (string | null)[] = new Array<string | null>(keys.length).fill(null);
  for (let i = keys.length - 2; i >= 0; i--) nextKept[i] = kept[i + 1] ?? nextKept[i + 1] ?? null;
  const out: string[] = [];
  let lo: string | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = kept[i];
    if (k !== null && k !== undefined) {
      out.push(k);
      lo = k;
      continue;
    }
    const fresh = orderKeyBetween(lo, nextKept[i] ?? null);
    out.push(fresh);
    lo = fresh;
  }
  return out;
}
