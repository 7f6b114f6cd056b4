export {
  EmptyRenderError,
  InvalidCommitError,
  InvalidEndingError,
  InvalidRenderOptionError,
  ModelMismatchError,
  RenderError,
  UnknownProviderError,
} from './errors.js';
export { escapeMarkers } from './escape-markers.js';
export { unescapeMarkers } from './unescape-markers.js';
export { ATTACH_CLOSE, MARKER_NAMESPACE, OPENING_USER_TEXT, SUMMARY_PREFIX } from './markers.js';
export { minCacheableTokens } from './min-cacheable-tokens.js';
export type { Provider, RenderOutput, RenderOutputs } from './provider.js';
export { providers } from './providers.js';
export { MAX_CACHE_BREAKPOINTS } from './providers/anthropic.js';
export type {
  AnthropicAssistantMessage,
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  AnthropicUserMessage,
} from './providers/anthropic-types.js';
export type {
  OpenAIChatAssistantMessage,
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIChatSystemMessage,
  OpenAIChatTool,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
} from './providers/openai-chat-types.js';
export type {
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesInputItem,
  OpenAIResponsesMessage,
  OpenAIResponsesRequest,
  OpenAIResponsesTool,
} from './providers/openai-responses-types.js';
export { TEXT_BLOCK_SEPARATOR } from './providers/text.js';
export { render } from './render.js';
export type { RenderInput } from './render-input.js';
export type { ProviderName, ProviderOptions, RenderOptions, ToolDefinition } from './render-options.js';
export { stablePrefix, type StablePrefix } from './stable-prefix.js';
export { validateRequest, type ValidateRequestOptions } from './validate-request.js';
export type { ValidationIssue } from './validate/issues.js';
