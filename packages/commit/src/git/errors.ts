import { CommitError } from '../errors.js';
import type { CommitErrorData } from '../errors.js';

/**
 * Base class of every error thrown by the git layer of `@ctxgit/commit` (codes `E_GIT_*`).
 *
 * @example
 * ```ts
 * try { await readBlob(ctx, oid); }
 * catch (e) { if (e instanceof GitError) report(e.code, e.data); else throw e; }
 * ```
 */
export class GitError extends CommitError {
  constructor(code: string, message: string, data: CommitErrorData = {}, options?: { readonly cause?: unknown; readonly retryable?: boolean }) {
    super(code, message, data, options);
  }
}

/** What kind of name failed validation. */
export type NameKind = 'session' | 'branch' | 'ref' | 'path';

/** A session, branch, ref or tree path name is not acceptable (`E_GIT_INVALID_NAME`); nothing was written. */
export class InvalidNameError extends GitError {
  constructor(name: string, what: NameKind, reason: string) {
    super('E_GIT_INVALID_NAME', `invalid ${what} name ${JSON.stringify(name)}: ${reason}; pick a name of letters, digits, '-', '_' or '.'`, { name, what, reason });
  }
}

/** An argument has the wrong shape, e.g. an oid that is not 40 lowercase hex digits (`E_GIT_INVALID_ARGUMENT`). */
export class GitArgumentError extends GitError {
  constructor(argument: string, reason: string) {
    super('E_GIT_INVALID_ARGUMENT', `invalid argument ${argument}: ${reason}`, { argument, reason });
  }
}

/** No object with this id exists in the repository (`E_GIT_OBJECT_NOT_FOUND`). */
export class ObjectNotFoundError extends GitError {
  constructor(oid: string) {
    super('E_GIT_OBJECT_NOT_FOUND', `git object ${oid} does not exist in this repository; write it first or pass an oid that was written`, { oid });
  }
}

/** The object exists but has another type than the call needs (`E_GIT_WRONG_OBJECT_TYPE`). */
export class ObjectTypeError extends GitError {
  constructor(oid: string, expected: string, actual: string) {
    super('E_GIT_WRONG_OBJECT_TYPE', `git object ${oid} is a ${actual}, expected a ${expected}`, { oid, expected, actual });
  }
}

/** An object or ref on disk cannot be parsed or does not hash to its id (`E_GIT_CORRUPT`); run `git fsck`. */
export class CorruptObjectError extends GitError {
  constructor(what: string, reason: string) {
    super('E_GIT_CORRUPT', `${what} is damaged (${reason}); run git fsck --strict on the repository`, { what, reason });
  }
}

/** Why a compare-and-swap of a ref failed: another writer holds its lock, or the ref moved away from the expected value. */
export type RefConflictReason = 'locked' | 'moved';

/** Who holds a ref lock, as its lock file says: `owner` is null for a lock of git or another program. */
export interface LockHolder {
  readonly owner: { readonly host: string; readonly pid: number; readonly nonce: string; readonly time: number } | null;
  /** Age of the lock file by its mtime, in milliseconds. */
  readonly ageMs: number;
}

/**
 * A compare-and-swap of a ref lost (`E_GIT_REF_CONFLICT`): the ref was not changed. Always retryable
 * (`retryable` and `data.retryable` are true).
 *
 * @remarks
 * `data.reason` is `'locked'` when `<ref>.lock` is held by a live writer (`data.holder` names its host and pid) or by
 * a lock of another host or program not yet older than `staleLockMs`; a lock whose owner died on this host is taken
 * over at once and never causes this error. `'moved'` when the ref does not hold `data.expected` (`data.actual` is
 * what it holds): re-read the ref and retry.
 */
export class RefConflictError extends GitError {
  constructor(ref: string, reason: RefConflictReason, expected: string | null, actual: string | null, holder: LockHolder | null = null) {
    super('E_GIT_REF_CONFLICT', reason === 'locked' ? lockedMessage(ref, holder) : `ref ${ref} holds ${actual ?? 'nothing'}, expected ${expected ?? 'nothing'}: another writer moved it first; re-read it and retry`, {
      ref,
      reason,
      expected,
      actual,
      retryable: true,
      holder,
    }, { retryable: true });
  }
}

function lockedMessage(ref: string, holder: LockHolder | null): string {
  const who = holder?.owner;
  if (who !== null && who !== undefined) {
    return `ref ${ref} is being written by a live writer (pid ${who.pid} on host ${who.host}, lock taken ${Math.round((holder?.ageMs ?? 0) / 1000)} s ago); nothing was written, retry in a moment`;
  }
  const age = holder === null ? '' : `, ${Math.round(holder.ageMs / 1000)} s old`;
  return `ref ${ref} is locked (${ref}.lock exists, written by git or a writer of another host${age}; it is taken for a dead writer's once older than staleLockMs); nothing was written, retry in a moment`;
}

/** errno codes of a condition that passes by itself: a busy or interrupted call, file handles or time run out. */
const TRANSIENT = new Set(['EAGAIN', 'EBUSY', 'EINTR', 'EMFILE', 'ENFILE', 'ETIMEDOUT']);

/**
 * A file-system call failed, e.g. ENOSPC or EIO (`E_GIT_IO`); nothing half-written is visible, the call can be
 * repeated. `retryable` for the errno codes of a passing condition (EAGAIN, EBUSY, EINTR, EMFILE, ENFILE,
 * ETIMEDOUT); others (ENOSPC, EACCES, EIO, …) need the disk or its permissions seen to first.
 */
export class GitIoError extends GitError {
  constructor(op: string, path: string, cause: unknown) {
    const errno = typeof cause === 'object' && cause !== null && 'code' in cause ? String((cause as { code: unknown }).code) : 'unknown';
    const retryable = TRANSIENT.has(errno);
    const advice = retryable ? 'retry in a moment' : 'check disk space and permissions, then retry';
    super('E_GIT_IO', `${op} ${path} failed (${errno}); ${advice}`, { op, path, errno }, { cause, retryable });
  }
}

/** The directory exists and is neither empty nor a git repository (`E_GIT_NOT_A_REPOSITORY`). */
export class NotARepositoryError extends GitError {
  constructor(dir: string, reason: string) {
    super('E_GIT_NOT_A_REPOSITORY', `"${dir}" is not a bare git repository (${reason}); point at a missing or empty directory, or at a bare repository`, { dir, reason });
  }
}
