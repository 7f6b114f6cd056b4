export { CtxgitError } from './ctxgit-error.js';
export type { CtxgitErrorData, CtxgitErrorJson, CtxgitErrorOptions } from './ctxgit-error.js';
