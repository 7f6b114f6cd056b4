import type { Provider } from './provider.js';
import { anthropic } from './providers/anthropic.js';
import { openaiChat } from './providers/openai-chat.js';
import { openaiResponses } from './providers/openai-responses.js';
import { text } from './providers/text.js';
import type { ProviderName } from './render-options.js';

/** Every provider by name; {@link render} dispatches on it. */
export const providers: { readonly [N in ProviderName]: Provider<N> } = {
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  anthropic,
  text,
};
