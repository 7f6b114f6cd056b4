// Maps errors to HTTP: ctxgit errors keep their stable code; the status says whose fault it is.

/** An error the HTTP layer answers with its own status and code. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly data: { readonly [key: string]: unknown };
  constructor(status: number, code: string, message: string, data: { readonly [key: string]: unknown } = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

const NOT_FOUND = new Set(['E_COMMIT_UNKNOWN_SESSION', 'E_COMMIT_UNKNOWN_COMMIT', 'E_COMMIT_UNKNOWN_ITEM', 'E_DAG_MISSING_NODE', 'E_DAG_SESSION_NOT_FOUND']);
const SERVER = new Set(['E_GIT_IO', 'E_GIT_CORRUPT', 'E_COMMIT_VERIFY_FAILED']);
const CONFLICT = new Set(['E_COMMIT_SESSION_EXISTS', 'E_COMMIT_CONFLICT', 'E_DAG_CONFLICT', 'E_DAG_AGENT_RUNNING', 'E_DAG_SESSION_EXISTS', 'E_GIT_REF_CONFLICT']);

/** Status and JSON body for any error: `{ error: { code, message, data } }`. */
export function errorResponse(err: unknown): { status: number; body: { error: { code: string; message: string; data: unknown } } } {
  if (err instanceof HttpError) return { status: err.status, body: { error: { code: err.code, message: err.message, data: err.data } } };
  const e = err as { code?: unknown; message?: unknown; data?: unknown; statusCode?: unknown; status?: unknown };
  if (typeof e?.code === 'string' && e.code.startsWith('E_')) {
    const status = NOT_FOUND.has(e.code) ? 404 : CONFLICT.has(e.code) ? 409 : SERVER.has(e.code) ? 500 : 400;
    return { status, body: { error: { code: e.code, message: String(e.message), data: e.data ?? {} } } };
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, body: { error: { code: 'E_BACKEND_BAD_REQUEST', message: String(e.message), data: {} } } };
  }
  if (typeof e?.status === 'number') {
    return { status: 502, body: { error: { code: 'E_BACKEND_PROVIDER', message: `the model provider answered ${e.status}: ${String(e.message)}`, data: { status: e.status } } } };
  }
  return { status: 500, body: { error: { code: 'E_BACKEND_INTERNAL', message: err instanceof Error ? err.message : String(err), data: {} } } };
}
