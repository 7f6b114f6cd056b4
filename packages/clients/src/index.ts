export { wrapOpenAI } from './wrap-openai.js';
export type { CtxgitOpenAI, WrapRenderOptions } from './wrap-openai.js';
export { wrapAnthropic } from './wrap-anthropic.js';
export type { CtxgitAnthropic } from './wrap-anthropic.js';
export type { CtxgitCallReport } from './call-report.js';
export { openAIChatHistory } from './openai-chat-history.js';
export { anthropicHistory } from './anthropic-history.js';
export { ClientsError, UnsupportedRequestError } from './errors.js';
