import { CtxgitError } from '@ctxgit/errors';

/** Stable codes of {@link ViewerError}. */
export type ViewerErrorCode = 'E_VIEWER_NOT_FOUND' | 'E_VIEWER_BAD_REQUEST' | 'E_VIEWER_READ_ONLY' | 'E_VIEWER_HOST' | 'E_VIEWER_NO_ASSETS';

/** What a {@link ViewerError} carries besides its message. */
export interface ViewerErrorData {
  /** The HTTP status the error is answered with. */
  readonly status: number;
  readonly [key: string]: unknown;
}

/**
 * An error of the viewer (a {@link CtxgitError}): a refused request (unknown path, bad parameter, a write method, a foreign `Host`), or a
 * missing front-end bundle. Answered as `{ error: { code, message } }` with `data.status`.
 *
 * @example
 * ```ts
 * try { createViewer({ repo, assetsDir: '/nowhere' }); } catch (e) { if (e instanceof ViewerError) e.code; }
 * ```
 */
export class ViewerError extends CtxgitError<ViewerErrorData> {
  override readonly name = 'ViewerError';
  declare readonly code: ViewerErrorCode;

  /** @internal */
  constructor(code: ViewerErrorCode, message: string, data: ViewerErrorData) {
    super(code, message, data);
  }
}

/** A 400 naming the query parameter at fault. */
export const badParam = (param: string, value: unknown, expected: string): ViewerError =>
  new ViewerError('E_VIEWER_BAD_REQUEST', `query parameter ${param} must be ${expected}, got ${JSON.stringify(value)}`, { status: 400, param });

/** A 404. */
export const notFound = (what: string): ViewerError => new ViewerError('E_VIEWER_NOT_FOUND', `${what} not found`, { status: 404 });
