import * as nodeCrypto from 'node:crypto';

/** Node's one-shot digest (`crypto.hash`, Node 20.12 and later). */
type OneShotHash = (algorithm: 'sha1', data: Uint8Array, outputEncoding: 'hex') => string;

/** SHA-1 of `parts` joined, in hex, through a `Hash` object: the plain path, for a runtime without `crypto.hash`. */
export function sha1Streamed(parts: readonly Uint8Array[]): string {
  const h = nodeCrypto.createHash('sha1');
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/**
 * The same through one `crypto.hash` call on the parts copied into one buffer: no `Hash` object, whose native handle
 * the garbage collector must finalize (a turn hashes ~60 objects; those handles took ~2 of a scavenge's ~7 ms).
 */
export function sha1OneShot(hash: OneShotHash, parts: readonly Uint8Array[]): string {
  if (parts.length === 1) return hash('sha1', parts[0] as Uint8Array, 'hex');
  const joined = Buffer.allocUnsafe(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length;
  }
  return hash('sha1', joined, 'hex');
}

const oneShot = (nodeCrypto as { hash?: OneShotHash }).hash;

/** SHA-1 of `parts` joined, in hex: {@link sha1OneShot} where the runtime has `crypto.hash`, else {@link sha1Streamed}. */
export const sha1Hex: (parts: readonly Uint8Array[]) => string = oneShot === undefined ? sha1Streamed : (parts) => sha1OneShot(oneShot, parts);
