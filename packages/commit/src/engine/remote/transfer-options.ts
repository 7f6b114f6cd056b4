import type { SessionOptions } from '../session-options.js';
import type { AuthCallback } from './remote.js';

/** Options of `Repo.push` and `Repo.fetch`. */
export interface TransferOptions {
  /** The sessions to transfer. @defaultValue every session (of this repository for a push, of the remote for a fetch) */
  readonly sessions?: readonly string[];
  /** Asked for credentials when the server wants some; they are never stored, logged or put in an error. @defaultValue none */
  readonly onAuth?: AuthCallback;
}

/** Options of `Repo.sync`: the session, credentials, how long to keep trying, and the session options for re-committing. */
export interface SyncOptions extends SessionOptions {
  /** The session whose pending turn is pushed. */
  readonly session: string;
  /** As for {@link TransferOptions.onAuth}. @defaultValue none */
  readonly onAuth?: AuthCallback;
  /** Rounds of fetch, re-apply and push before `SyncExhaustedError`. @defaultValue 50 */
  readonly maxAttempts?: number;
  /** Milliseconds to wait before round `attempt + 1`. @defaultValue `min(2000, 25 * 2^attempt)` times a random factor in [0.5, 1.5) */
  readonly backoff?: (attempt: number) => number;
  /** How to wait. @defaultValue a `setTimeout` promise */
  readonly sleep?: (ms: number) => Promise<void>;
}
