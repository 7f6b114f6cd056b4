import { CommitError } from '../../errors.js';
import type { CommitErrorData } from '../../errors.js';

/**
 * Base class of the errors of push, fetch, clone and sync (codes `E_REMOTE_*`). `retryable` says whether the same
 * call may succeed later unchanged (after a `sync`, or once the server is back). Messages and `data` never hold
 * credentials: the URL is refused when it carries any, and the values `onAuth` returns are kept out.
 *
 * @example
 * ```ts
 * try { await repo.push(remote); }
 * catch (e) { if (e instanceof RemoteError && e.retryable) await repo.sync(remote, { session: 'chat-42' }); else throw e; }
 * ```
 */
export class RemoteError extends CommitError {
  constructor(code: string, message: string, data: CommitErrorData, retryable: boolean) {
    super(code, message, data, { retryable });
  }
}

/**
 * Another backend moved a ref of the remote first (`E_REMOTE_CONFLICT`, retryable): the server's compare-and-swap
 * refused the update, nothing of it was applied. Run `repo.sync()` (fetch, re-apply the pending turn, push again).
 */
export class RemoteConflictError extends RemoteError {
  constructor(ref: string, expected: string | null, reason: string) {
    super('E_REMOTE_CONFLICT', `the remote's ${ref} moved since it was read (${reason}); nothing was lost: run repo.sync() to fetch, re-apply the pending turn and push again`, { ref, expected, reason }, true);
  }
}

/** The server could not be reached or failed (`E_REMOTE_UNREACHABLE`, retryable); local work is kept, push it later. */
export class RemoteUnreachableError extends RemoteError {
  constructor(operation: string, reason: string) {
    super('E_REMOTE_UNREACHABLE', `${operation}: the git server did not answer (${reason}); local work is kept, retry the call when the server is back`, { operation, reason }, true);
  }
}

/** The server refused the credentials, or asked for some and `onAuth` gave none (`E_REMOTE_AUTH`). */
export class RemoteAuthError extends RemoteError {
  constructor(operation: string, status: number) {
    super('E_REMOTE_AUTH', `${operation}: the git server refused the credentials (HTTP ${status}); pass onAuth returning a user and password or token that may read and write the repository`, { operation, status }, false);
  }
}

/** The server refused an update for a reason other than a race (hook, permissions, fsck) (`E_REMOTE_REJECTED`). */
export class RemoteRejectedError extends RemoteError {
  constructor(ref: string, reason: string) {
    super('E_REMOTE_REJECTED', `the git server refused to update ${ref} (${reason}); check the server's hooks and permissions`, { ref, reason }, false);
  }
}

/** The remote has no such session (`E_REMOTE_UNKNOWN_SESSION`). */
export class RemoteUnknownSessionError extends RemoteError {
  constructor(session: string) {
    super('E_REMOTE_UNKNOWN_SESSION', `the remote has no session "${session}"; list its sessions with ctxgit fetch, or push it from the backend that has it`, { session }, false);
  }
}

/** The remote description is not usable (`E_REMOTE_INVALID`); nothing was sent. */
export class InvalidRemoteError extends RemoteError {
  constructor(field: string, reason: string) {
    super('E_REMOTE_INVALID', `invalid remote ${field}: ${reason}`, { field, reason }, false);
  }
}

/** Sync gave up after its attempts, each lost to another writer (`E_REMOTE_SYNC_EXHAUSTED`, retryable). */
export class SyncExhaustedError extends RemoteError {
  constructor(session: string, attempts: number) {
    super('E_REMOTE_SYNC_EXHAUSTED', `sync of session "${session}" lost the race ${attempts} times in a row; the pending turn is kept locally, call sync again`, { session, attempts }, true);
  }
}
