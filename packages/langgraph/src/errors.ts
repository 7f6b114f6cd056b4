import { CtxgitError } from '@ctxgit/errors';

/** A JSON-able payload describing what went wrong. */
export type LangGraphErrorData = { readonly [key: string]: unknown };

/**
 * Base class (a {@link CtxgitError}) of every error thrown by `@ctxgit/langgraph`; `code` is stable, `data` holds the offending values.
 *
 * @example
 * ```ts
 * try { await saver.put({}, checkpoint, metadata, {}); }
 * catch (e) { if (e instanceof LangGraphSaverError) console.error(e.code, e.data); }
 * ```
 */
export class LangGraphSaverError extends CtxgitError<LangGraphErrorData> {
  constructor(code: string, message: string, data: LangGraphErrorData = {}) {
    super(code, message, data);
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
