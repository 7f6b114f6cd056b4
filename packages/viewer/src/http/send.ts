import type { ServerResponse } from 'node:http';
import type { ErrorBody } from '../api-types.js';
import { ViewerError } from '../errors.js';
import { SECURITY_HEADERS } from './headers.js';

/** Answers with a JSON document. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Codes of the errors of the packages below that mean "no such thing". */
const NOT_FOUND = new Set(['E_COMMIT_UNKNOWN_SESSION', 'E_COMMIT_UNKNOWN_COMMIT', 'E_COMMIT_UNKNOWN_ITEM', 'E_GIT_OBJECT_NOT_FOUND', 'E_GIT_WRONG_OBJECT_TYPE', 'E_DAG_SESSION_NOT_FOUND', 'E_DAG_MISSING_NODE']);
/** Codes that mean the request named something invalidly. */
const BAD_REQUEST = new Set(['E_GIT_INVALID_NAME', 'E_GIT_INVALID_ARGUMENT', 'E_DAG_INVALID_ID', 'E_DAG_INVALID_SESSION_NAME']);

/** Answers with `{ error: { code, message } }`: 4xx for a refused request, 404 for a missing thing, else 500. */
export function sendError(res: ServerResponse, err: unknown): void {
  const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : 'E_VIEWER_INTERNAL';
  const message = err instanceof Error ? err.message : String(err);
  let status = 500;
  if (err instanceof ViewerError) status = err.data.status;
  else if (NOT_FOUND.has(code)) status = 404;
  else if (BAD_REQUEST.has(code)) status = 400;
  const body: ErrorBody = { error: { code, message } };
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, body);
}
