import { CorruptObjectError, GitArgumentError, InvalidNameError } from '../errors.js';
import type { TreeEntry } from '../tree-entry.js';
import { assertOid } from './oid.js';

export const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const IGNORABLE = /[\u200b-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/** Letters, digits, `_`, `-` and `.`, not first: passes every check of {@link checkAnySegment}; most names are such. */
const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/u;

/** Refuses tree entry names git (or `git fsck --strict`) rejects, or that a checkout could turn into `.git`. */
export function assertSegment(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !PLAIN_NAME.test(name)) checkAnySegment(name);
}

/** {@link assertSegment} for any name, each check in turn. */
export function checkAnySegment(name: unknown): asserts name is string {
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

/** A tree's encoding with the byte offset of each entry (`offsets[k]`; `offsets[n]` is the length). */
export interface EncodedTree {
  readonly content: Uint8Array;
  readonly offsets: Uint32Array;
}

/** One entry's bytes: mode, space, name, NUL, the 20-byte id. */
function entryBytes(entry: TreeEntry): number {
  return (entry.type === 'tree' ? 6 : 7) + Buffer.byteLength(entry.path, 'utf8') + 1 + 20;
}

function writeEntry(out: Buffer, at: number, entry: TreeEntry): number {
  let o = at + out.write(entry.type === 'tree' ? '40000 ' : '100644 ', at, 'latin1');
  o += out.write(entry.path, o, 'utf8');
  out[o++] = 0;
  return o + out.write(entry.oid, o, 'hex');
}

/** Serializes entries already in git's order (into one buffer). */
export function encodeTree(sorted: readonly TreeEntry[]): Uint8Array {
  return encodeTreeOffsets(sorted).content;
}

/** {@link encodeTree}, with the offset of each entry. */
export function encodeTreeOffsets(sorted: readonly TreeEntry[]): EncodedTree {
  let size = 0;
  let previous: string | undefined;
  for (const entry of sorted) {
    if (entry.path === previous) throw new GitArgumentError('entries', `duplicate entry ${JSON.stringify(entry.path)}`);
    previous = entry.path;
    size += entryBytes(entry);
  }
  const out = Buffer.allocUnsafe(size);
  const offsets = new Uint32Array(sorted.length + 1);
  let o = 0;
  for (let k = 0; k < sorted.length; k++) {
    offsets[k] = o;
    o = writeEntry(out, o, sorted[k] as TreeEntry);
  }
  offsets[sorted.length] = o;
  return { content: out, offsets };
}

/**
 * {@link encodeTree} of `sorted`, a tree's entries after an edit of `entries` (`withChanges`: the entries it keeps are
 * the old tree's own objects, in their order): the bytes of each run of kept entries are copied from `old`, the old
 * tree's encoding; only the entries that changed or joined are written. The same bytes as `encodeTree(sorted)`.
 */
export function encodeTreeEdit(entries: readonly TreeEntry[], old: EncodedTree, sorted: readonly TreeEntry[]): EncodedTree {
  const src = Buffer.from(old.content.buffer, old.content.byteOffset, old.content.byteLength);
  // the old index of each kept entry (or -1: written anew); kept entries come in old order
  const from = new Int32Array(sorted.length);
  let size = 0;
  let p = 0;
  for (let k = 0; k < sorted.length; k++) {
    const e = sorted[k] as TreeEntry;
    while (p < entries.length && entries[p] !== e && compareEntries(entries[p] as TreeEntry, e) <= 0) p++;
    if (p < entries.length && entries[p] === e) {
      from[k] = p;
      size += (old.offsets[p + 1] as number) - (old.offsets[p] as number);
      p++;
    } else {
      from[k] = -1;
      size += entryBytes(e);
    }
  }
  const out = Buffer.allocUnsafe(size);
  const offsets = new Uint32Array(sorted.length + 1);
  let o = 0;
  for (let k = 0; k < sorted.length; ) {
    offsets[k] = o;
    const q = from[k] as number;
    if (q < 0) {
      o = writeEntry(out, o, sorted[k] as TreeEntry);
      k++;
      continue;
    }
    // a run of entries kept side by side in both: one copy
    let end = k + 1;
    while (end < sorted.length && from[end] === q + (end - k)) {
      offsets[end] = o + (old.offsets[q + end - k] as number) - (old.offsets[q] as number);
      end++;
    }
    o += src.copy(out, o, old.offsets[q] as number, old.offsets[q + end - k] as number);
    k = end;
  }
  offsets[sorted.length] = o;
  return { content: out, offsets };
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
