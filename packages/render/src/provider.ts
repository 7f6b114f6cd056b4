import type { ContextItem } from '@ctxgit/rules';
import type { AnthropicRequest } from './providers/anthropic-types.js';
import type { OpenAIChatRequest } from './providers/openai-chat-types.js';
import type { OpenAIResponsesRequest } from './providers/openai-responses-types.js';
import type { ProviderName, ProviderOptions } from './render-options.js';

/** What `render` returns for each provider. The `text` view is a string. */
export interface RenderOutputs {
  readonly 'openai-chat': OpenAIChatRequest;
  readonly 'openai-responses': OpenAIResponsesRequest;
  readonly anthropic: AnthropicRequest;
  readonly text: string;
}

/** Any rendered request. */
export type RenderOutput = RenderOutputs[ProviderName];

/**
 * One request format behind the common contract. `render` is pure: it reads only its arguments, never
 * mutates them, and returns fresh objects; it throws a {@link RenderError} when the items cannot make a
 * valid request.
 */
export interface Provider<N extends ProviderName = ProviderName> {
  readonly name: N;
  render(items: readonly ContextItem[], options: ProviderOptions): RenderOutputs[N];
}
