export { CtxgitSaver } from './ctxgit-saver.js';
export type { CheckpointContext, CtxgitSaverOptions } from './ctxgit-saver.js';
export { LangGraphSaverError, MissingConfigError } from './errors.js';
export type { LangGraphErrorData } from './errors.js';
export { messagesToHistory } from './messages-to-history.js';
