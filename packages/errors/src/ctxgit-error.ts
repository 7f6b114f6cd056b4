/** A JSON-able payload describing what went wrong: the offending values, never secrets. */
export type CtxgitErrorData = { readonly [key: string]: unknown };

/** What a {@link CtxgitError} takes besides its code, message and data. */
export interface CtxgitErrorOptions {
  /** The error this one wraps. */
  readonly cause?: unknown;
  /** True when repeating the same call on fresh state can succeed (a lost race, a server that is back). @defaultValue false */
  readonly retryable?: boolean;
}

/** The JSON form of a {@link CtxgitError} ({@link CtxgitError.toJSON}). */
export interface CtxgitErrorJson {
  readonly name: string;
  readonly code: string;
  readonly message: string;
  readonly data: CtxgitErrorData;
  readonly retryable: boolean;
  /** The wrapped error: its JSON form when it is a ctxgit error, else its name and message; absent without a cause. */
  readonly cause?: CtxgitErrorJson | { readonly name: string; readonly message: string } | string;
}

/**
 * Base class of every error a ctxgit package throws. Each package derives its own base from it (`DagError`,
 * `RulesError`, `CommitError`, `RenderError`, …), so `instanceof CtxgitError` catches all of them.
 *
 * `code` is stable across versions (match on it, not on the message); `data` carries the offending values;
 * `retryable` is true only when repeating the same call on fresh state can succeed; `cause` is the wrapped error.
 *
 * @example
 * ```ts
 * try { await session.commit(); }
 * catch (e) {
 *   if (e instanceof CtxgitError && e.retryable) await session.commit();
 *   else if (e instanceof CtxgitError) console.error(e.code, e.data);
 *   else throw e;
 * }
 * ```
 */
export class CtxgitError<D extends CtxgitErrorData = CtxgitErrorData> extends Error {
  /** Stable machine-readable code, e.g. `E_COMMIT_UNKNOWN_SESSION`. */
  readonly code: string;
  /** The values that caused the error. */
  readonly data: D;
  /** True when the same call may succeed if repeated on fresh state. */
  readonly retryable: boolean;

  /**
   * @param code - stable error code
   * @param message - what was wrong and what to do
   * @param data - the offending values
   * @param options - the wrapped cause, and whether the call can be retried
   */
  constructor(code: string, message: string, data: D, options?: CtxgitErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = data;
    this.retryable = options?.retryable ?? false;
  }

  /**
   * The error as plain JSON (what `JSON.stringify(error)` writes): name, code, message, data, retryable and the cause.
   *
   * @example
   * ```ts
   * JSON.stringify(new CtxgitError('E_X', 'x went wrong', { x: 1 }));
   * // '{"name":"CtxgitError","code":"E_X","message":"x went wrong","data":{"x":1},"retryable":false}'
   * ```
   */
  toJSON(): CtxgitErrorJson {
    const base = { name: this.name, code: this.code, message: this.message, data: this.data, retryable: this.retryable };
    return this.cause === undefined ? base : { ...base, cause: causeJson(this.cause) };
  }
}

function causeJson(cause: unknown): NonNullable<CtxgitErrorJson['cause']> {
  if (cause instanceof CtxgitError) return cause.toJSON();
  if (cause instanceof Error) return { name: cause.name, message: cause.message };
  try {
    return String(cause);
  } catch {
    return Object.prototype.toString.call(cause);
  }
}
