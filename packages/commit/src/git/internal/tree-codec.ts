import { CorruptObjectError, GitArgumentError, InvalidNameError } from '../errors.js';
import type { TreeEntry } from '../tree-entry.js';
import { assertOid } from './oid.js';

export const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const IGNORABLE = /[\u200b-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/** Refuses tree entry names git (or `git fsck --strict`) rejects, or that a checkout could turn into `.git`. */
export function assertSegment(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw new InvalidNameError(String(name), 'path', 'not a string');
  const bad = (reason: string): never => {
    throw new InvalidNameError(name, 'path', reason);
  };
  if (name.length === 0) bad('empty');
  if (name === '.' || name === '..') bad('is . or ..');
  if (name.includes('/')) bad("contains '/'");
  if (name.includes('\\')) bad("contains '\\'");
  if (name.includes('\0')) bad('contains NUL');
  if (LONE_SURROGATE.test(name)) bad('contains a lone surrogate');
  const folded = name.replace(IGNORABLE, '').toLowerCase().replace(/[. ]+$/u, '');
  if (folded.startsWith('.git') || folded === 'git~1') bad('could be read as .git');
}

export function checkEntry(entry: TreeEntry, where: string): void {
  assertSegment(entry.path);
  assertOid(`${where}.oid`, entry.oid);
  if (!((entry.mode === '100644' && entry.type === 'blob') || (entry.mode === '040000' && entry.type === 'tree'))) {
    throw new GitArgumentError(`${where}.mode`, `mode ${JSON.stringify(entry.mode)} with type ${JSON.stringify(entry.type)}; use '100644' for blobs and '040000' for trees`);
  }
}

/** Git's tree order: bytewise on the name, a tree compared as if its name ended in '/'. */
function sortKey(entry: TreeEntry): string {
  return entry.type === 'tree' ? `${entry.path}/` : entry.path;
}

const ASCII = /^[\x00-\x7f]*$/u;

/** Compares two sort keys bytewise in UTF-8 (for ASCII, code unit order is byte order). */
function compareKeys(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Compares two entries in git's tree order. */
export function compareEntries(a: TreeEntry, b: TreeEntry): number {
  return compareKeys(sortKey(a), sortKey(b));
}

/** The entries in git's order. */
export function sortTree(entries: readonly TreeEntry[]): TreeEntry[] {
  if (entries.every((e) => ASCII.test(e.path))) {
    const keyed = entries.map((entry) => ({ entry, key: sortKey(entry) }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return keyed.map((k) => k.entry);
  }
  const keyed = entries.map((entry) => ({ entry, key: Buffer.from(sortKey(entry), 'utf8') }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return keyed.map((k) => k.entry);
}

/** Serializes entries already in git's order (into one buffer). */
export function encodeTree(sorted: readonly TreeEntry[]): Uint8Array {
  let size = 0;
  let previous: string | undefined;
  for (const entry of sorted) {
    if (entry.path === previous) throw new GitArgumentError('entries', `duplicate entry ${JSON.stringify(entry.path)}`);
    previous = entry.path;
    size += (entry.type === 'tree' ? 6 : 7) + Buffer.byteLength(entry.path, 'utf8') + 1 + 20;
  }
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  for (const entry of sorted) {
    o += out.write(entry.type === 'tree' ? '40000 ' : '100644 ', o, 'latin1');
    o += out.write(entry.path, o, 'utf8');
    out[o++] = 0;
    o += out.write(entry.oid, o, 'hex');
  }
  return out;
}

export function decodeTree(oid: string, content: Uint8Array): TreeEntry[] {
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const entries: TreeEntry[] = [];
  let i = 0;
  while (i < buf.length) {
    const space = buf.indexOf(0x20, i);
    const nul = buf.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > buf.length) throw new CorruptObjectError(`tree ${oid}`, 'truncated entry');
    const mode = buf.toString('latin1', i, space);
    const path = buf.toString('utf8', space + 1, nul);
    const entryOid = buf.toString('hex', nul + 1, nul + 21);
    i = nul + 21;
    if (mode === '100644') entries.push({ mode, path, oid: entryOid, type: 'blob' });
    else if (mode === '40000' || mode === '040000') entries.push({ mode: '040000', path, oid: entryOid, type: 'tree' });
    else throw new CorruptObjectError(`tree ${oid}`, `entry ${JSON.stringify(path)} has mode ${mode}, which ctxgit does not write`);
  }
  return entries;
}
