import type { ContextItem } from '@ctxgit/rules';
import { plan as planItems, type Plan, type PlanText } from '../plan.js';
import type { Provider } from '../provider.js';
import type { ProviderOptions } from '../render-options.js';
import { checkEnding } from './ending.js';
import type { OpenAIChatMessage, OpenAIChatRequest, OpenAIChatToolCall } from './openai-chat-types.js';

/** Builds the Chat Completions body from a plan (no ending check). */
export function buildOpenAIChat(plan: Plan, options: ProviderOptions): OpenAIChatRequest {
  const messages: OpenAIChatMessage[] = plan.system.map((part) => ({ role: options.systemRole, content: part.text }));
  for (const message of plan.messages) {
    if (message.role === 'user') {
      messages.push({ role: 'user', content: (message.parts[0] as PlanText).text });
    } else if (message.role === 'tool') {
      for (const part of message.parts) {
        if (part.kind === 'result') messages.push({ role: 'tool', tool_call_id: part.callId, content: part.output });
      }
    } else {
      const texts = message.parts.filter((part): part is PlanText => part.kind === 'text');
      const calls: OpenAIChatToolCall[] = [];
      for (const part of message.parts) {
        if (part.kind === 'call') calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
      }
      const content = texts.length === 0 ? null : texts.map((part) => part.text).join('\n\n');
      messages.push(calls.length === 0 ? { role: 'assistant', content } : { role: 'assistant', content, tool_calls: calls });
    }
  }
  const body: OpenAIChatRequest = { model: options.model, messages };
  if (options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: { ...(tool.parameters ?? { type: 'object' }) },
      },
    }));
  }
  return body;
}

/**
 * OpenAI Chat Completions: system items become `system` (or `developer`) messages at the start, native tool
 * pairs become an assistant message with `tool_calls` followed by one `tool` message per call, in call order.
 * Automatic prompt caching is positional (it caches the longest previously seen prefix, from 1,024 tokens),
 * so the body holds nothing volatile: system and tool declarations first, then items in commit order.
 */
export const openaiChat: Provider<'openai-chat'> = {
  name: 'openai-chat',
  render(items: readonly ContextItem[], options: ProviderOptions): OpenAIChatRequest {
    const plan = planItems(items);
    checkEnding('openai-chat', items.length, plan, options);
    return buildOpenAIChat(plan, options);
  },
};
