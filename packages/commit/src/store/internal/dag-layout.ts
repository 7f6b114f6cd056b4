import { createHash } from 'node:crypto';

/** Two levels of two hex digits of sha1(key): spreads any id over 65,536 leaf trees. */
function shard(key: string): [string, string] {
  const h = createHash('sha1').update(key, 'utf8').digest('hex');
  return [h.slice(0, 2), h.slice(2, 4)];
}

const SEQ_DIGITS = 16;

/** `nodes/<h0h1>/<h2h3>/<id>.json` */
export function nodePath(id: string): string[] {
  return ['nodes', ...shard(id), `${id}.json`];
}

/** `children/<h0h1>/<h2h3>/<parent>/`: one entry per node whose predecessor is `parent`. */
export function childrenDir(parent: string): string[] {
  return ['children', ...shard(parent), parent];
}

/** `callees/<h0h1>/<h2h3>/<caller>/`: one entry per tool node whose caller is `caller`. */
export function calleesDir(caller: string): string[] {
  return ['callees', ...shard(caller), caller];
}

/**
 * A session name as one tree entry name: bytes of `[A-Za-z0-9_-]` and non-leading `.` kept, every other UTF-8
 * byte written `%XX`, so the name is readable, reversible and never `.`, `..` or `.git`.
 */
export function encodeSessionName(name: string): string {
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/u.test(c) || (c === '.' && out !== '') ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function decodeSessionName(segment: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === '%') {
      bytes.push(parseInt(segment.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(segment.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `sessions/<h0h1>/<encoded name>/`: holds `session.json` and `roots/`. */
export function sessionDir(session: string): string[] {
  return ['sessions', shard(session)[0], encodeSessionName(session)];
}

/** The entry name under an index directory: zero-padded seq, `.`, id — git's byte order is `(seq, id)` order. */
export function indexEntryName(seq: number, id: string): string {
  return `${String(seq).padStart(SEQ_DIGITS, '0')}.${id}`;
}

export function idOfIndexEntry(name: string): string {
  return name.slice(SEQ_DIGITS + 1);
}
