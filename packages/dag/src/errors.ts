import { CtxgitError } from '@ctxgit/errors';

/** A JSON-able payload describing what went wrong: the offending values, never secrets. */
export type DagErrorData = { readonly [key: string]: unknown };

/**
 * Base class (a {@link CtxgitError}) of every error thrown by `@ctxgit/dag`.
 *
 * `code` is stable across versions (match on it, not on the message); `data` carries the offending values;
 * `retryable` is true only when repeating the same call on fresh state can succeed (a store conflict).
 *
 * @example
 * ```ts
 * try { await appendNode(store, 'chat', { role: 'user', output: 'hi' }); }
 * catch (e) { if (e instanceof DagError && e.retryable) { ... } }
 * ```
 */
export class DagError<D extends DagErrorData = DagErrorData> extends CtxgitError<D> {
  constructor(code: string, message: string, data: D, options?: { readonly cause?: unknown; readonly retryable?: boolean }) {
    super(code, message, data, options);
  }
}

/** A node role outside `system | user | assistant | tool` (`E_DAG_UNKNOWN_ROLE`). */
export class UnknownRoleError extends DagError<{ readonly role: string; readonly id?: string }> {
  constructor(data: { readonly role: string; readonly id?: string }) {
    super('E_DAG_UNKNOWN_ROLE', `unknown role ${JSON.stringify(data.role)}${at(data.id)}; use one of system, user, assistant, tool`, data);
  }
}

/** A node names both a `predecessor` and a `caller` (`E_DAG_BOTH_PREDECESSOR_AND_CALLER`). */
export class BothPredecessorAndCallerError extends DagError<{ readonly id: string; readonly predecessor: string; readonly caller: string }> {
  constructor(data: { readonly id: string; readonly predecessor: string; readonly caller: string }) {
    super(
      'E_DAG_BOTH_PREDECESSOR_AND_CALLER',
      `node ${data.id} has both predecessor ${data.predecessor} and caller ${data.caller}; a tool node hangs under its caller only, every other node follows its predecessor`,
      data,
    );
  }
}

/** Which reference of a node, or which argument, named a node. */
export type NodeReference = 'predecessor' | 'caller' | 'reads' | 'node' | 'at' | 'head';

/** A node, or an edge of a node, names a node the store does not hold (`E_DAG_MISSING_NODE`). */
export class MissingNodeError extends DagError<{ readonly missing: string; readonly reference: NodeReference; readonly from?: string }> {
  constructor(data: { readonly missing: string; readonly reference: NodeReference; readonly from?: string }) {
    super(
      'E_DAG_MISSING_NODE',
      `${data.from === undefined ? data.reference : `${data.reference} of node ${data.from}`} names node ${data.missing}, which is not in the store; append that node first or fix the id`,
      data,
    );
  }
}

/** Edges of the nodes being written form a cycle (`E_DAG_CYCLE`); `ids` lists the cycle in edge order. */
export class CycleError extends DagError<{ readonly ids: readonly string[] }> {
  constructor(data: { readonly ids: readonly string[] }) {
    super('E_DAG_CYCLE', `edges form a cycle: ${data.ids.join(' -> ')}; a node may only refer to nodes written before it`, data);
  }
}

/** A node id is already in the store, or twice in one write (`E_DAG_DUPLICATE_ID`). */
export class DuplicateIdError extends DagError<{ readonly id: string }> {
  constructor(data: { readonly id: string }) {
    super('E_DAG_DUPLICATE_ID', `node id ${data.id} is already taken; nodes are never overwritten, give the new node a fresh id`, data);
  }
}

/**
 * A value is not plain JSON (`E_DAG_NOT_JSON`): a function, `undefined`, a symbol or bigint, a non-finite
 * number, a lone surrogate, a sparse array, a circular reference or a non-plain object (Date, Map, class instance).
 * `path` locates it, e.g. `input.files[2]`.
 */
export class NotJsonError extends DagError<{ readonly path: string; readonly reason: string }> {
  constructor(data: { readonly path: string; readonly reason: string }) {
    super('E_DAG_NOT_JSON', `${data.path} is not JSON: ${data.reason}; store only null, booleans, finite numbers, well-formed strings, arrays and plain objects`, data);
  }
}

/** A node's `output` exceeds the configured limit in UTF-8 bytes (`E_DAG_OUTPUT_TOO_LARGE`). */
export class OutputTooLargeError extends DagError<{ readonly id: string; readonly bytes: number; readonly limit: number }> {
  constructor(data: { readonly id: string; readonly bytes: number; readonly limit: number }) {
    super(
      'E_DAG_OUTPUT_TOO_LARGE',
      `output of node ${data.id} is ${data.bytes} bytes of UTF-8, over the limit of ${data.limit}; raise maxOutputBytes or store the payload elsewhere and keep a reference`,
      data,
    );
  }
}

/** A node's `input`, `metadata`, `name` or `reads` is over its limit (`E_DAG_FIELD_TOO_LARGE`); nothing was written. */
export class FieldTooLargeError extends DagError<{ readonly id: string; readonly field: string; readonly size: number; readonly limit: number; readonly unit: string }> {
  constructor(data: { readonly id: string; readonly field: string; readonly size: number; readonly limit: number; readonly unit: string }) {
    super('E_DAG_FIELD_TOO_LARGE', `${data.field} of node ${data.id} is ${data.size} ${data.unit}, over the limit of ${data.limit}; store the payload elsewhere and keep a reference`, data);
  }
}

/** A node id is not a safe git path segment (`E_DAG_INVALID_ID`). */
export class InvalidIdError extends DagError<{ readonly id: string; readonly reason: string }> {
  constructor(data: { readonly id: string; readonly reason: string }) {
    super('E_DAG_INVALID_ID', `node id ${JSON.stringify(data.id)} is invalid: ${data.reason}; use 1-128 characters of [A-Za-z0-9._-], not starting with "." and without ".."`, data);
  }
}

/** A session name is empty, not a string, or holds control characters or lone surrogates (`E_DAG_INVALID_SESSION_NAME`). */
export class InvalidSessionNameError extends DagError<{ readonly name: string; readonly reason: string }> {
  constructor(data: { readonly name: string; readonly reason: string }) {
    super('E_DAG_INVALID_SESSION_NAME', `session name ${JSON.stringify(data.name)} is invalid: ${data.reason}; use a non-empty name without control characters`, data);
  }
}

/** The session does not exist in the store (`E_DAG_SESSION_NOT_FOUND`). */
export class SessionNotFoundError extends DagError<{ readonly session: string }> {
  constructor(data: { readonly session: string }) {
    super('E_DAG_SESSION_NOT_FOUND', `session ${JSON.stringify(data.session)} does not exist; create it with createSession() or forkSession()`, data);
  }
}

/** A session of that name already exists (`E_DAG_SESSION_EXISTS`). */
export class SessionExistsError extends DagError<{ readonly session: string }> {
  constructor(data: { readonly session: string }) {
    super('E_DAG_SESSION_EXISTS', `session ${JSON.stringify(data.session)} already exists; pick another name`, data);
  }
}

/** The session's agent-running lock refuses the operation (`E_DAG_AGENT_RUNNING`). */
export class AgentRunningError extends DagError<{ readonly session: string; readonly operation: string }> {
  constructor(data: { readonly session: string; readonly operation: string }) {
    super(
      'E_DAG_AGENT_RUNNING',
      `${data.operation} refused: an agent run is active on session ${JSON.stringify(data.session)}; wait for it to end or call setAgentRunning(store, session, false)`,
      data,
    );
  }
}

/**
 * The session record changed between read and write (`E_DAG_CONFLICT`); the store wrote nothing.
 * `expected` is the version the writer read (`null` for a create), `actual` the stored one (`null` if absent).
 * Retryable: repeat the operation, it re-reads the session.
 */
export class DagConflictError extends DagError<{ readonly session: string; readonly expected: number | null; readonly actual: number | null }> {
  constructor(data: { readonly session: string; readonly expected: number | null; readonly actual: number | null }) {
    super(
      'E_DAG_CONFLICT',
      `session ${JSON.stringify(data.session)} was written concurrently (expected version ${String(data.expected)}, found ${String(data.actual)}); nothing was stored, retry the operation`,
      data,
      { retryable: true },
    );
  }
}

/** Where a transcript problem is: 1-based `line` of the file, 0-based `index` of the message, or both. */
export type TranscriptLocation = {
  /** 1-based line of the source file (JSONL formats, or the line of a conversation in JSONL). */
  readonly line?: number;
  /** 0-based index of the message within its conversation or history. */
  readonly index?: number;
};

/** A transcript line or message cannot be imported (`E_DAG_MALFORMED_TRANSCRIPT`); `reason` says what was wrong. */
export class MalformedTranscriptError extends DagError<TranscriptLocation & { readonly format: string; readonly reason: string }> {
  constructor(data: TranscriptLocation & { readonly format: string; readonly reason: string }, options?: { readonly cause?: unknown }) {
    const where = [data.line === undefined ? '' : `line ${data.line}`, data.index === undefined ? '' : `message ${data.index}`].filter(Boolean).join(', ');
    super('E_DAG_MALFORMED_TRANSCRIPT', `${data.format} transcript${where === '' ? '' : `, ${where}`}: ${data.reason}; fix the source or import with malformed: 'skip' to count and skip it`, data, options);
  }
}

/** An edge is well-formed but not allowed, e.g. a `caller` that is not an assistant (`E_DAG_INVALID_EDGE`). */
export class InvalidEdgeError extends DagError<{ readonly id: string; readonly reference: NodeReference; readonly target: string; readonly reason: string }> {
  constructor(data: { readonly id: string; readonly reference: NodeReference; readonly target: string; readonly reason: string }) {
    super('E_DAG_INVALID_EDGE', `${data.reference} ${data.target} of node ${data.id} is not allowed: ${data.reason}`, data);
  }
}

/** An argument has the wrong type or value (`E_DAG_INVALID_ARGUMENT`); `argument` names it. */
export class InvalidArgumentError extends DagError<{ readonly argument: string; readonly reason: string }> {
  constructor(data: { readonly argument: string; readonly reason: string }) {
    super('E_DAG_INVALID_ARGUMENT', `invalid ${data.argument}: ${data.reason}`, data);
  }
}

const at = (id: string | undefined): string => (id === undefined ? '' : ` on node ${id}`);
