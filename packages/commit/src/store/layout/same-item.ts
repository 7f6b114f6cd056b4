import type { Block, ContextItem } from '@ctxgit/rules';

/** True when two items would serialize to the same blob; same-object fast path, then a field-by-field comparison. */
export function sameItem(a: ContextItem, b: ContextItem): boolean {
  if (a === b) return true;
  const ka = Object.keys(a).filter((k) => (a as unknown as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as unknown as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    const va = (a as unknown as Record<string, unknown>)[k];
    const vb = (b as unknown as Record<string, unknown>)[k];
    if (k === 'blocks') {
      if (!sameBlocks(va as readonly Block[], vb as readonly Block[] | undefined)) return false;
    } else if (k === 'folded') {
      if (!sameStrings(va as readonly string[], vb as readonly string[] | undefined)) return false;
    } else if (va !== vb) return false;
  }
  return true;
}

function sameBlocks(a: readonly Block[], b: readonly Block[] | undefined): boolean {
  if (a === b) return true;
  if (b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as unknown as Record<string, unknown>;
    const y = b[i] as unknown as Record<string, unknown>;
    if (x === y) continue;
    const kx = Object.keys(x).filter((k) => x[k] !== undefined);
    if (kx.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
    for (const k of kx) if (x[k] !== y[k]) return false;
  }
  return true;
}

function sameStrings(a: readonly string[], b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (b === undefined || a.length !== b.length) return false;
  return a.every((v, i) => v === b[i]);
}
