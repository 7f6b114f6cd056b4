import type { ContextItem } from '@ctxgit/rules';
import type { ProviderName, ProviderOptions, RenderOutput } from '../../src/index.js';
import { plan } from '../../src/plan.js';
import { buildAnthropic } from '../../src/providers/anthropic.js';
import { buildOpenAIChat } from '../../src/providers/openai-chat.js';
import { buildOpenAIResponses } from '../../src/providers/openai-responses.js';
import { text } from '../../src/providers/text.js';

export const OPTIONS: ProviderOptions = {
  model: 'm',
  maxTokens: 1024,
  systemRole: 'system',
  cache: true,
  minCacheableTokens: 0,
  allowAssistantLast: false,
  tools: [{ name: 'bash' }, { name: 'read_file' }, { name: 'TodoWrite' }],
};

/** Renders without the ending check, so that any prefix of a session can be rendered. */
export function build(provider: ProviderName, items: readonly ContextItem[], options: ProviderOptions = OPTIONS): RenderOutput {
  if (provider === 'text') return items.length === 0 ? '' : text.render(items, options);
  const p = plan(items);
  if (provider === 'anthropic') return buildAnthropic(p, options);
  return provider === 'openai-chat' ? buildOpenAIChat(p, options) : buildOpenAIResponses(p, options);
}

/**
 * Messages of the render of `q` (the unchanged items) that no later item can change: the open tail is the
 * last assistant turn (later tool items append their calls to it) and, for Anthropic, the last message
 * (later same-role content merges into it).
 */
export function settled(q: RenderOutput, qItems: number): number {
  if (typeof q === 'string') return qItems;
  if ('input' in q) return q.input.length;
  const messages = q.messages;
  const n = messages.length;
  if ('max_tokens' in q) {
    const last = q.messages[n - 1];
    return last?.role === 'user' && last.content[0]?.type === 'tool_result' ? n - 2 : Math.max(0, n - 1);
  }
  let i = n;
  while (i > 0 && messages[i - 1]?.role === 'tool') i -= 1;
  if (i < n) return i - 1;
  return messages[n - 1]?.role === 'assistant' ? n - 1 : n;
}

