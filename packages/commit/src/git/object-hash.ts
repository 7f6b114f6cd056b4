import { sha1Hex } from './internal/sha1.js';

/** The four kinds of git object. */
export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** The header's text: `<type> <byte length>\0` (ASCII, so the same bytes in latin1 and UTF-8). */
const headerText = (type: GitObjectType, length: number): string => `${type} ${length}\0`;

/** The header git hashes before an object's content: `<type> <byte length>\0`. */
export function objectHeader(type: GitObjectType, length: number): Buffer {
  return Buffer.from(headerText(type, length), 'latin1');
}

/**
 * The git object id of some content: the SHA-1 of `<type> <byte length>\0<content>`, what `git hash-object -t <type>`
 * prints. Strings are hashed as their UTF-8 bytes. The one place ctxgit computes an object id: writes, reads of loose
 * and packed objects, verify and expand all hash through it.
 *
 * @param type - the object's type
 * @param content - the object's content, without the header
 * @returns the 40-hex-digit object id
 * @example
 * ```ts
 * hashObject('blob', 'hello\n'); // 'ce013625030ba8dba906f756967f9e9ca394464a', as `echo hello | git hash-object --stdin`
 * hashObject('tree', new Uint8Array()); // '4b825dc642cb6eb9a060e54bf8d69288fbee4904', the empty tree
 * ```
 */
export function hashObject(type: GitObjectType, content: Uint8Array | string): string {
  // a string is encoded once, with its header
  if (typeof content === 'string') return sha1Hex([Buffer.from(headerText(type, Buffer.byteLength(content, 'utf8')) + content, 'utf8')]);
  return sha1Hex([objectHeader(type, content.length), content]);
}

/** The object id of an object already wrapped with its header (`<type> <length>\0<content>`), as stored loose. */
export function hashWrappedObject(wrapped: Uint8Array): string {
  return sha1Hex([wrapped]);
}
