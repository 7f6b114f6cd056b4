import { GitIoError, RefConflictError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { errnoOf, linkFile, readSmallFileOrNull, renameFile, unlinkFile, unlinkQuietly, writeExclusive } from './fs-ops.js';
import type { LockOwner, LockVerdict } from './lock-record.js';
import { judgeLock, lockBytes, parseLock } from './lock-record.js';
import { stateOf } from './state.js';

// The lock protocol of a ref (docs/reliability.md, "The ref lock protocol", says why each step is there):
//   <ref>.lock                  the lock; its bytes name the owner (host, pid, nonce), so they are unique per acquisition
//   <ref>~takeover.lock         held while one writer takes over a stale lock: takers are serialized
//   <ref>~stale-<nonce>.lock    where a taker moves the stale lock before checking that it moved what it judged
//   <ref>~new-<nonce>.lock      the new value, written by the owner of the lock with that nonce, renamed onto the ref
//   <ref>~owner-<nonce>.lock    a lock's bytes before they are hard-linked to <ref>.lock (a lock is never seen empty)
// '~' cannot appear in a ref name, so none of these is the lock of another ref; git skips every `*.lock` file.

/** A lock this writer holds: its path and the exact bytes it wrote there. */
export interface HeldLock {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly nonce: string;
}

/** What a lock file held when it was read, with its mtime. */
interface SeenLock {
  readonly bytes: Uint8Array;
  readonly mtimeMs: number;
}

/** `<ref>` of `<ref>.lock`. */
function baseOf(lockPath: string): string {
  return lockPath.slice(0, -'.lock'.length);
}

export function guardPath(lockPath: string): string {
  return `${baseOf(lockPath)}~takeover.lock`;
}

export function valuePath(lockPath: string, nonce: string): string {
  return `${baseOf(lockPath)}~new-${nonce}.lock`;
}

function ownerPath(lockPath: string, nonce: string): string {
  return `${baseOf(lockPath)}~owner-${nonce}.lock`;
}

function movedPath(lockPath: string, nonce: string): string {
  return `${baseOf(lockPath)}~stale-${nonce}.lock`;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

/** The lock's bytes and mtime, read twice around the stat so that both describe one file; null when it is gone. */
async function readLock(ctx: GitContext, path: string): Promise<SeenLock | null> {
  for (;;) {
    const bytes = await readSmallFileOrNull(ctx, path);
    if (bytes === null) return null;
    let mtimeMs: number;
    try {
      mtimeMs = Number((await ctx.fs.promises.stat(path)).mtimeMs);
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') return null;
      throw new GitIoError('stat', path, err);
    }
    const again = await readSmallFileOrNull(ctx, path);
    if (again === null) return null;
    if (same(bytes, again)) return { bytes, mtimeMs };
  }
}

/**
 * Creates `path` holding `bytes`, exclusively: written to `<ref>~owner-<nonce>.lock` first, then hard-linked to
 * `path` (link fails when `path` exists), so the lock never exists without its owner in it. Without `link` in the fs,
 * `open(path, 'wx')` and a write. False when `path` exists already.
 */
async function createWith(ctx: GitContext, path: string, bytes: Uint8Array, nonce: string): Promise<boolean> {
  if (ctx.fs.promises.link === undefined) {
    try {
      await writeExclusive(ctx, path, bytes, false);
      return true;
    } catch (err) {
      if (errnoOf(err) === 'EEXIST') return false;
      throw new GitIoError('lock', path, err);
    }
  }
  const temp = ownerPath(path, nonce);
  try {
    await writeExclusive(ctx, temp, bytes, false);
    await linkFile(ctx, temp, path);
    return true;
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false;
    throw new GitIoError('lock', path, err);
  } finally {
    await unlinkQuietly(ctx, temp);
  }
}

/** Creates `path` holding a fresh owner record; null when it exists already. */
async function create(ctx: GitContext, path: string): Promise<HeldLock | null> {
  const state = stateOf(ctx);
  const nonce = state.nonce();
  const bytes = lockBytes(state.identity, nonce, Date.now());
  return (await createWith(ctx, path, bytes, nonce)) ? { path, bytes, nonce } : null;
}

function judge(ctx: GitContext, seen: SeenLock, staleMs: number, now: number): LockVerdict {
  const state = stateOf(ctx);
  return judgeLock(state.identity, state.abandoned, seen, now, staleMs);
}

/** True while `held` is still the file at its path (nobody took it over). */
export async function stillHeld(ctx: GitContext, held: HeldLock): Promise<boolean> {
  const now = await readSmallFileOrNull(ctx, held.path);
  return now !== null && same(now, held.bytes);
}

/**
 * Removes `held` if it is still this writer's; a lock another writer holds now is never touched. Never throws: when
 * the file system refuses, the lock is marked abandoned so that this process takes it over on its next write (other
 * processes do once this one has exited).
 */
export async function releaseLock(ctx: GitContext, held: HeldLock): Promise<void> {
  try {
    if (await stillHeld(ctx, held)) await unlinkFile(ctx, held.path);
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT') stateOf(ctx).abandoned.add(held.nonce);
  }
}

/**
 * Moves the file at `path` out of the way if it still holds `judged` (bytes a caller judged stale), as one atomic
 * rename followed by a check of what moved. What moved is not `judged` only if a writer outside this protocol changed
 * the file between the read and the rename (takers are serialized and a stale owner is dead): then it is put back
 * with an exclusive create when its place is still free, and otherwise dropped, in which case its owner finds its lock
 * gone at its last check and fails retryably, having written nothing. True when `judged` was removed.
 */
async function moveAway(ctx: GitContext, path: string, judged: Uint8Array): Promise<boolean> {
  const current = await readSmallFileOrNull(ctx, path);
  if (current === null || !same(current, judged)) return false;
  const moved = movedPath(path, stateOf(ctx).nonce());
  try {
    await renameFile(ctx, path, moved);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false;
    throw new GitIoError('rename', path, err);
  }
  const got = await readSmallFileOrNull(ctx, moved);
  if (got !== null && !same(got, judged)) {
    try {
      await createWith(ctx, path, got, stateOf(ctx).nonce());
    } catch {
      // its place was taken meanwhile, or the disk refused: see above
    }
  }
  await unlinkQuietly(ctx, moved);
  return got !== null && same(got, judged);
}

/**
 * Takes the takeover guard of `lockPath` (taking over a guard whose owner is dead, by the same judgement as locks);
 * null when a live writer holds it.
 */
async function acquireGuard(ctx: GitContext, lockPath: string, staleMs: number, now: number): Promise<HeldLock | null> {
  const path = guardPath(lockPath);
  for (let round = 0; round < 3; round++) {
    const held = await create(ctx, path);
    if (held !== null) return held;
    const seen = await readLock(ctx, path);
    if (seen === null) continue;
    if (!judge(ctx, seen, staleMs, now).stale) return null;
    await moveAway(ctx, path, seen.bytes);
  }
  return null;
}

/**
 * Removes the lock at `lockPath` if it still holds `judged`, under the takeover guard so that no two writers take
 * over at once (two takers could otherwise both judge one stale lock, and the second remove the fresh lock the next
 * writer made after the first). Also removes the stale-lock files a taker killed mid-way left. True when removed.
 */
async function takeOver(ctx: GitContext, lockPath: string, judged: Uint8Array, staleMs: number, now: number): Promise<boolean> {
  const guard = await acquireGuard(ctx, lockPath, staleMs, now);
  if (guard === null) return false;
  try {
    return await moveAway(ctx, lockPath, judged);
  } finally {
    await releaseLock(ctx, guard);
  }
}

/** The error for a lock held by someone alive (or not yet old enough to be judged dead): retryable. */
function lockedError(ref: string, expected: string | null, verdict: LockVerdict | null): RefConflictError {
  return new RefConflictError(ref, 'locked', expected, null, verdict === null ? null : { owner: verdict.owner, ageMs: verdict.ageMs });
}

/**
 * Takes `<ref>.lock` for `ref`. A lock whose owner is dead (see {@link judgeLock}) is taken over; a live owner's is
 * never touched and the call fails with a retryable {@link RefConflictError} (reason `locked`) naming the owner.
 */
export async function acquireRefLock(ctx: GitContext, ref: string, lockPath: string, expected: string | null): Promise<HeldLock> {
  const { staleLockMs } = stateOf(ctx);
  let last: LockVerdict | null = null;
  for (let round = 0; round < 4; round++) {
    const held = await create(ctx, lockPath);
    if (held !== null) return held;
    const seen = await readLock(ctx, lockPath);
    if (seen === null) continue;
    last = judge(ctx, seen, staleLockMs, Date.now());
    if (!last.stale) break;
    await takeOver(ctx, lockPath, seen.bytes, staleLockMs, Date.now());
  }
  throw lockedError(ref, expected, last);
}

/** What {@link sweepLock} did with one lock file. */
export type SweepOutcome = 'removed' | 'live' | 'gone';

/** Removes the lock at `lockPath` when it is stale by `staleMs` at `now` (dead owner: any age), by the takeover above. */
export async function sweepLock(ctx: GitContext, lockPath: string, staleMs: number, now: number): Promise<SweepOutcome> {
  const seen = await readLock(ctx, lockPath);
  if (seen === null) return 'gone';
  if (!judge(ctx, seen, staleMs, now).stale) return 'live';
  return (await takeOver(ctx, lockPath, seen.bytes, staleMs, now)) ? 'removed' : 'live';
}

/**
 * Removes the leftovers of dead writers beside `lockPath`: `~new-<nonce>` values whose nonce is not the current
 * owner's (a writer removes its value before it releases its lock, so such a value's writer died), a takeover guard
 * whose owner died, and `~stale-` files (a taker died between its move and its unlink; removed under the guard, so no
 * taker is checking them). `names` are the file names in the lock's directory, listed before this call. Returns the
 * paths removed.
 */
export async function sweepLeftovers(ctx: GitContext, lockPath: string, names: readonly string[], staleMs: number, now: number): Promise<string[]> {
  const dir = lockPath.slice(0, lockPath.lastIndexOf('/'));
  const base = baseOf(lockPath).slice(dir.length + 1);
  const values = names.filter((n) => n.startsWith(`${base}~new-`) && n.endsWith('.lock'));
  const moved = names.filter((n) => n.startsWith(`${base}~stale-`) && n.endsWith('.lock'));
  const removed: string[] = [];
  for (const name of names.filter((n) => n.startsWith(`${base}~owner-`) && n.endsWith('.lock'))) {
    // written before the link by a writer that is creating its lock: removed only once that writer is dead
    const seen = await readLock(ctx, `${dir}/${name}`);
    if (seen === null || !judge(ctx, seen, staleMs, now).stale) continue;
    await unlinkQuietly(ctx, `${dir}/${name}`);
    removed.push(`${dir}/${name}`);
  }
  if (values.length > 0) {
    const current = await readSmallFileOrNull(ctx, lockPath);
    const owner: LockOwner | null = current === null ? null : parseLock(current);
    for (const name of values) {
      if (owner !== null && name === `${base}~new-${owner.nonce}.lock`) continue;
      await unlinkQuietly(ctx, `${dir}/${name}`);
      removed.push(`${dir}/${name}`);
    }
  }
  if (moved.length > 0 || names.includes(`${base}~takeover.lock`)) {
    const guard = await acquireGuard(ctx, lockPath, staleMs, now);
    if (guard !== null) {
      try {
        for (const name of moved) {
          await unlinkQuietly(ctx, `${dir}/${name}`);
          removed.push(`${dir}/${name}`);
        }
      } finally {
        await releaseLock(ctx, guard);
      }
    }
  }
  return removed;
}

/** `<dir>/<ref>.lock` for every lock-protocol file name in `dir` (the lock itself, or one of its `~` files). */
export function lockPathsOf(dir: string, names: readonly string[]): string[] {
  const bases = new Set<string>();
  for (const name of names) {
    if (!name.endsWith('.lock')) continue;
    const tilde = name.indexOf('~');
    bases.add(tilde >= 0 ? name.slice(0, tilde) : name.slice(0, -'.lock'.length));
  }
  return [...bases].filter((b) => b !== '').sort().map((b) => `${dir}/${b}.lock`);
}
