/** A JSON-able payload describing what went wrong. */
export type LangGraphErrorData = { readonly [key: string]: unknown };

/**
 * Base class of every error thrown by `@ctxgit/langgraph`; `code` is stable, `data` holds the offending values.
 *
 * @example
 * ```ts
 * try { await saver.put({}, checkpoint, metadata, {}); }
 * catch (e) { if (e instanceof LangGraphSaverError) console.error(e.code, e.data); }
 * ```
 */
export class LangGraphSaverError extends Error {
  /** Stable machine-readable code, e.g. `E_LANGGRAPH_MISSING_CONFIG`. */
  readonly code: string;
  /** The values that caused the error. */
  readonly data: LangGraphErrorData;
  constructor(code: string, message: string, data: LangGraphErrorData = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.data = data;
  }
}

/** A call lacked a required `configurable` field (`E_LANGGRAPH_MISSING_CONFIG`). */
export class MissingConfigError extends LangGraphSaverError {
  constructor(method: string, field: string) {
    super(
      'E_LANGGRAPH_MISSING_CONFIG',
      `${method}: config.configurable.${field} is missing or not a string; pass it, e.g. graph.invoke(input, { configurable: { thread_id: "t-1" } })`,
      { method, field },
    );
  }
}
