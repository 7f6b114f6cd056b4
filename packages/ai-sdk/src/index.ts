export { ctxgitMiddleware } from './ctxgit-middleware.js';
export type { CtxgitCallMetadata, CtxgitMiddlewareOptions } from './ctxgit-middleware.js';
export { modelMessagesToHistory } from './model-messages-to-history.js';
export { nodesToModelMessages } from './nodes-to-model-messages.js';
