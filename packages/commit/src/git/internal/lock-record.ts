import { createHash } from 'node:crypto';
import type { LockIdentity } from '../lock-identity.js';

/** What a ctxgit lock file holds: its owner. Git's own locks (and older ctxgit's) hold an oid instead. */
export interface LockOwner {
  readonly host: string;
  readonly pid: number;
  /** Random, per lock: two locks of one process differ, so a lock's bytes name exactly one acquisition. */
  readonly nonce: string;
  /** Wall-clock milliseconds when it was taken (informational; ages are judged by the file's mtime). */
  readonly time: number;
}

const NONCE = /^[0-9a-f]{8,64}$/u;

/** The bytes of a lock owned by `identity`, one JSON line. */
export function lockBytes(identity: LockIdentity, nonce: string, time: number): Uint8Array {
  return Buffer.from(`${JSON.stringify({ ctxgitLock: 1, host: identity.host, pid: identity.pid, nonce, time })}\n`, 'utf8');
}

/** The owner a lock file names, or null for a lock of git or another program (or a torn write). */
export function parseLock(bytes: Uint8Array): LockOwner | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Record<string, unknown>;
  const { host, pid, nonce, time } = r;
  if (r['ctxgitLock'] !== 1 || typeof host !== 'string' || typeof nonce !== 'string' || !NONCE.test(nonce)) return null;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || typeof time !== 'number') return null;
  return { host, pid, nonce, time };
}

/** Whether a lock may be taken over, and why; `owner` is null for a lock that names none. */
export type LockVerdict =
  | { readonly stale: false; readonly owner: LockOwner | null; readonly ageMs: number }
  | { readonly stale: true; readonly owner: LockOwner | null; readonly ageMs: number; readonly why: 'owner-dead' | 'old' };

/**
 * Judges a lock: stale when its owner is a process of this host that is not running (at once, whatever its age), or
 * when it names no owner on this host (another host, or git's own lock) and its mtime is at least `staleMs` old.
 * A lock of a running process of this host is never stale, however old, except one of this very process that it
 * failed to remove (`abandoned` nonces: no call of this process holds it any more).
 */
export function judgeLock(identity: LockIdentity, abandoned: ReadonlySet<string>, seen: { readonly bytes: Uint8Array; readonly mtimeMs: number }, now: number, staleMs: number): LockVerdict {
  const owner = parseLock(seen.bytes);
  const ageMs = Math.max(0, now - seen.mtimeMs);
  if (owner !== null && owner.host === identity.host) {
    if (owner.pid === identity.pid) return abandoned.has(owner.nonce) ? { stale: true, owner, ageMs, why: 'owner-dead' } : { stale: false, owner, ageMs };
    if (identity.isAlive(owner.pid)) return { stale: false, owner, ageMs };
    return { stale: true, owner, ageMs, why: 'owner-dead' };
  }
  return ageMs >= staleMs ? { stale: true, owner, ageMs, why: 'old' } : { stale: false, owner, ageMs };
}

/** The owner part of a temporary object file's name, `<host hash>-<pid>`: a sweep removes those of dead processes. */
export function tempOwnerTag(identity: LockIdentity): string {
  return `${hostTag(identity.host)}-${identity.pid}`;
}

/**
 * Whose the temporary object file `name` (`tmp_obj_<host hash>-<pid>_…`) is: a `dead` or `live` process of this host,
 * or `unknown` (another host, or a name without an owner).
 */
export function tempFileOwner(identity: LockIdentity, name: string): 'dead' | 'live' | 'unknown' {
  const m = /^tmp_obj_([0-9a-f]{8})-([0-9]+)_/u.exec(name);
  if (m === null || m[1] !== hostTag(identity.host)) return 'unknown';
  const pid = Number(m[2]);
  return pid === identity.pid || identity.isAlive(pid) ? 'live' : 'dead';
}

function hostTag(host: string): string {
  return createHash('sha1').update(host, 'utf8').digest('hex').slice(0, 8);
}
