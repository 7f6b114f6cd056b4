import { CtxgitError } from '@ctxgit/errors';

/** A JSON-able payload describing what went wrong. */
export type CommitErrorData = { readonly [key: string]: unknown };

/**
 * Base class (a {@link CtxgitError}) of every error thrown by `@ctxgit/commit`.
 *
 * `code` is stable across versions (match on it, not on the message); `data` carries the offending values.
 *
 * @example
 * ```ts
 * try { await repo.openSession('nope'); }
 * catch (e) { if (e instanceof CommitError && e.code === 'E_COMMIT_UNKNOWN_SESSION') report(e.data); else throw e; }
 * ```
 */
export class CommitError extends CtxgitError<CommitErrorData> {
  constructor(code: string, message: string, data: CommitErrorData = {}, options?: { readonly cause?: unknown; readonly retryable?: boolean }) {
    super(code, message, data, options);
  }
}

/** The session does not exist in the repository (`E_COMMIT_UNKNOWN_SESSION`). */
export class UnknownSessionError extends CommitError {
  constructor(session: string) {
    super('E_COMMIT_UNKNOWN_SESSION', `session "${session}" does not exist; create it with repo.createSession()`, { session });
  }
}

/** `createSession`, `importSession` or `fork` was given a name already taken, or one differing from a taken one only by case (`E_COMMIT_SESSION_EXISTS`). */
export class SessionNameTakenError extends CommitError {
  constructor(session: string, existing: string = session) {
    super(
      'E_COMMIT_SESSION_EXISTS',
      existing === session
        ? `session "${session}" already exists; open it with repo.openSession() or pick another name`
        : `session "${session}" differs from the existing session "${existing}" only by case (a case-insensitive file system would merge their refs); pick another name`,
      { session, existing },
    );
  }
}

/** No ContextCommit with this id exists in the repository (`E_COMMIT_UNKNOWN_COMMIT`). */
export class UnknownCommitError extends CommitError {
  constructor(id: string, reason: string) {
    super('E_COMMIT_UNKNOWN_COMMIT', `no ContextCommit "${id}" in this repository (${reason}); pass the oid of a commit from s.log()`, { id, reason });
  }
}

/** The directory holds something other than a ctxgit repository (`E_COMMIT_NOT_CTXGIT_REPO`). */
export class NotCtxgitRepoError extends CommitError {
  constructor(dir: string, reason: string) {
    super('E_COMMIT_NOT_CTXGIT_REPO', `"${dir}" is not a ctxgit repository (${reason}); point openRepo at an empty or missing directory, or at a repository ctxgit created`, { dir, reason });
  }
}

/** The model is unknown and no `window`/`budget` was given (`E_COMMIT_UNKNOWN_MODEL`). */
export class UnknownModelError extends CommitError {
  constructor(model: string, cause?: unknown) {
    super('E_COMMIT_UNKNOWN_MODEL', `model "${model}" is not in the model table; pass { window: <tokens> } to createSession`, { model }, { cause });
  }
}

/** An option has a wrong type or range (`E_COMMIT_INVALID_OPTION`). */
export class InvalidOptionError extends CommitError {
  constructor(option: string, value: unknown, expected: string) {
    const shown = showValue(value);
    super('E_COMMIT_INVALID_OPTION', `option "${option}" is invalid (${shown}); expected ${expected}`, { option, value: shown, expected });
  }
}

/** A short, JSON-safe description of any value (bigints, symbols, functions and cycles included). */
function showValue(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json.length > 200 ? `${json.slice(0, 200)}…` : json;
  } catch {
    // a bigint, a cycle or a throwing toJSON: fall back to String below
  }
  try {
    return typeof value === 'symbol' ? value.toString() : String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return '(an unreadable value)';
    }
  }
}

/** A merge names no peer, a peer twice, or the target itself (`E_COMMIT_INVALID_MERGE`). */
export class InvalidMergeError extends CommitError {
  constructor(reason: string, data: CommitErrorData) {
    super('E_COMMIT_INVALID_MERGE', `invalid merge: ${reason}`, data);
  }
}

/** The session has no node yet, so there is nothing to commit (`E_COMMIT_EMPTY_SESSION`). */
export class EmptySessionError extends CommitError {
  constructor(session: string) {
    super('E_COMMIT_EMPTY_SESSION', `session "${session}" has no node; append one before committing`, { session });
  }
}

/**
 * Another writer changed the session first, or is writing a ref of it right now; nothing of this call was written
 * and it can be retried (`E_COMMIT_CONFLICT`, `retryable` and `data.retryable` true). `data.reason` is `'locked'` when a live writer
 * holds the ref's lock (`data.holder` names it), `'moved'` otherwise.
 */
export class CommitConflictError extends CommitError {
  constructor(session: string, what: string, cause?: unknown) {
    const c = typeof cause === 'object' && cause !== null && 'data' in cause ? (cause as { data: CommitErrorData }).data : {};
    const locked = c['reason'] === 'locked';
    super(
      'E_COMMIT_CONFLICT',
      locked
        ? `a live writer is writing session "${session}" (${what}) right now${holderText(c['holder'])}; nothing of this call was written, retry it`
        : `another writer changed session "${session}" (${what}) first; nothing of this call was written, retry it`,
      { session, what, reason: locked ? 'locked' : 'moved', retryable: true, ...(locked ? { holder: c['holder'] ?? null } : {}) },
      { cause, retryable: true },
    );
  }
}

function holderText(holder: unknown): string {
  const owner = typeof holder === 'object' && holder !== null ? (holder as { owner?: { pid?: unknown; host?: unknown } | null }).owner : undefined;
  return owner === null || owner === undefined ? '' : ` (pid ${String(owner.pid)} on host ${String(owner.host)})`;
}

/** The key names no item, or an item that is not a summary (`E_COMMIT_UNKNOWN_ITEM`). */
export class UnknownItemError extends CommitError {
  constructor(key: string, commit: string, reason: string) {
    super('E_COMMIT_UNKNOWN_ITEM', `item "${key}" of commit ${commit}: ${reason}`, { key, commit, reason });
  }
}

/** An original node does not match the git object id recorded for it (`E_COMMIT_VERIFY_FAILED`). */
export class VerificationError extends CommitError {
  constructor(nodeId: string, expected: string, actual: string) {
    super('E_COMMIT_VERIFY_FAILED', `node "${nodeId}" hashes to ${actual}, the commit recorded ${expected}; the repository is damaged, run git fsck`, { nodeId, expected, actual });
  }
}

/** A merge names the target among its peers (`E_COMMIT_SELF_MERGE`). */
export class SelfMergeError extends CommitError {
  constructor(session: string) {
    super('E_COMMIT_SELF_MERGE', `session "${session}" cannot be merged into itself; name other sessions as peers`, { session });
  }
}

/** `pin`/`unpin` named a node that is not an item of the session's context (`E_COMMIT_PIN_UNKNOWN_NODE`). */
export class PinTargetError extends CommitError {
  constructor(nodeId: string, session: string, commit: string) {
    super(
      'E_COMMIT_PIN_UNKNOWN_NODE',
      `node "${nodeId}" is not an item of the context of session "${session}" (commit ${commit}); pin the id of a node on this session's branch (an item key of s.commit())`,
      { nodeId, session, commit },
    );
  }
}

/** The item cannot be pinned or unpinned in its state (`E_COMMIT_PIN_STATE`): not `full`, already pinned, or not pinned. */
export class PinStateError extends CommitError {
  constructor(nodeId: string, state: string, pinned: boolean, wanted: 'pin' | 'unpin') {
    const why =
      wanted === 'unpin'
        ? 'it is not pinned'
        : pinned
          ? 'it is pinned already'
          : `it is ${state}: a pin keeps a full item full and states never loosen; read it with expand or the fold tools instead`;
    super('E_COMMIT_PIN_STATE', `cannot ${wanted} item "${nodeId}": ${why}`, { nodeId, state, pinned, wanted });
  }
}

/** Pinning the item would take the pinned items over the session's cap (`E_COMMIT_PIN_CAP`); tokens. */
export class PinCapError extends CommitError {
  constructor(nodeId: string, itemTokens: number, pinnedTokens: number, capTokens: number) {
    super(
      'E_COMMIT_PIN_CAP',
      `cannot pin item "${nodeId}" (${itemTokens} tokens): pinned items hold ${pinnedTokens} of the ${capTokens} tokens allowed (maxPinnedShare of the history budget); unpin something or raise maxPinnedShare`,
      { nodeId, itemTokens, pinnedTokens, capTokens },
    );
  }
}

/** The stable codes of {@link FoldToolError}. */
export type FoldToolErrorCode =
  | 'E_FOLD_TOOL_UNKNOWN_TOOL'
  | 'E_FOLD_TOOL_BAD_ARGUMENTS'
  | 'E_FOLD_TOOL_UNKNOWN_SUMMARY'
  | 'E_FOLD_TOOL_OUT_OF_RANGE'
  | 'E_FOLD_TOOL_TOO_LARGE';

/**
 * A fold tool call the model made was wrong: an unknown tool, malformed arguments, an unknown summary, an offset out
 * of range or a request over the size limit. {@link Session.foldTool} returns it in its result (the text the model
 * gets back says what to do instead) rather than throwing.
 */
export class FoldToolError extends CommitError {
  declare readonly code: FoldToolErrorCode;
  constructor(code: FoldToolErrorCode, message: string, data: CommitErrorData) {
    super(code, message, data);
  }
}

/** {@link Session.appendNew} was given a history that leaves the session's branch where it cannot continue (`E_COMMIT_HISTORY_DIVERGED`). */
export class HistoryDivergedError extends CommitError {
  constructor(session: string, index: number, reason: string) {
    super('E_COMMIT_HISTORY_DIVERGED', `the history given to session "${session}" differs from its branch at message ${index} (${reason}); start a new session for an unrelated conversation`, { session, index, reason });
  }
}
