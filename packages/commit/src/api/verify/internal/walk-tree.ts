import { readTree } from '../../../git/read-tree.js';
import type { Verifier } from './verifier.js';
import { guard } from './verifier.js';

/** A blob found under a tree, with its path below that tree. */
export interface Leaf {
  readonly path: readonly string[];
  readonly oid: string;
}

/**
 * The blobs exactly `depth` levels below `tree` (1 = its own blob entries); a tree where a blob should be, or a
 * blob where a tree should be, is reported and skipped.
 */
export async function leavesAt(v: Verifier, where: string, tree: string, prefix: readonly string[], depth: number): Promise<Leaf[]> {
  const entries = await guard(v, `${where}:${prefix.join('/')}`, 'unreadable tree', () => readTree(v.git, tree));
  if (entries === undefined) return [];
  const out: Leaf[] = [];
  for (const e of entries) {
    const path = [...prefix, e.path];
    if (depth === 1 && e.type === 'blob') out.push({ path, oid: e.oid });
    else if (depth > 1 && e.type === 'tree') out.push(...(await leavesAt(v, where, e.oid, path, depth - 1)));
    else v.issues.push({ code: 'E_VERIFY_DAG_INDEX_MISMATCH', severity: 'error', path: `${where}:${path.join('/')}`, message: `unexpected ${e.type} at depth ${depth} of the layout` });
  }
  return out;
}

/** The trees exactly `depth` levels below `tree`; a blob where a tree should be is reported and skipped. */
export async function treesAt(v: Verifier, where: string, tree: string, prefix: readonly string[], depth: number): Promise<Leaf[]> {
  const entries = await guard(v, `${where}:${prefix.join('/')}`, 'unreadable tree', () => readTree(v.git, tree));
  if (entries === undefined) return [];
  const out: Leaf[] = [];
  for (const e of entries) {
    const path = [...prefix, e.path];
    if (e.type !== 'tree') v.issues.push({ code: 'E_VERIFY_DAG_INDEX_MISMATCH', severity: 'error', path: `${where}:${path.join('/')}`, message: `unexpected ${e.type} at depth ${depth} of the layout` });
    else if (depth === 1) out.push({ path, oid: e.oid });
    else out.push(...(await treesAt(v, where, e.oid, path, depth - 1)));
  }
  return out;
}

/** The entry `name` of a tree, or undefined. */
export async function entryOf(v: Verifier, where: string, tree: string, name: string): Promise<{ oid: string; type: 'blob' | 'tree' } | undefined> {
  const entries = await guard(v, where, 'unreadable tree', () => readTree(v.git, tree));
  const e = entries?.find((x) => x.path === name);
  return e === undefined ? undefined : { oid: e.oid, type: e.type };
}

/** Every blob below `tree`, at any depth. */
export async function allLeaves(v: Verifier, where: string, tree: string, prefix: readonly string[]): Promise<Leaf[]> {
  const entries = await guard(v, `${where}:${prefix.join('/')}`, 'unreadable tree', () => readTree(v.git, tree));
  if (entries === undefined) return [];
  const out: Leaf[] = [];
  for (const e of entries) {
    const path = [...prefix, e.path];
    if (e.type === 'blob') out.push({ path, oid: e.oid });
    else for (const l of await allLeaves(v, where, e.oid, path)) out.push(l);
  }
  return out;
}
