import type { ContextItem } from '@ctxgit/rules';
import { plan as planItems, type Plan, type PlanCall, type PlanResult } from '../plan.js';
import type { Provider } from '../provider.js';
import type { ProviderOptions } from '../render-options.js';
import { checkEnding } from './ending.js';
import type { OpenAIResponsesInputItem, OpenAIResponsesRequest } from './openai-responses-types.js';

/** Builds the Responses body from a plan (no ending check). */
export function buildOpenAIResponses(plan: Plan, options: ProviderOptions): OpenAIResponsesRequest {
  const input: OpenAIResponsesInputItem[] = plan.system.map((part) => ({ type: 'message', role: options.systemRole, content: part.text }));
  const messages = plan.messages;
  for (let i = 0; i < messages.length; i += 1) {
    const message = messages[i]!;
    if (message.role === 'tool') continue;
    const calls: PlanCall[] = [];
    for (const part of message.parts) {
      if (part.kind === 'text') input.push({ type: 'message', role: message.role, content: part.text });
      else if (part.kind === 'call') calls.push(part);
    }
    if (calls.length === 0) continue;
    const results = new Map<string, PlanResult>();
    for (const part of messages[i + 1]?.parts ?? []) if (part.kind === 'result') results.set(part.callId, part);
    for (const call of calls) {
      input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
      const result = results.get(call.id);
      if (result !== undefined) input.push({ type: 'function_call_output', call_id: call.id, output: result.output });
    }
  }
  const body: OpenAIResponsesRequest = { model: options.model, input };
  if (options.tools.length > 0) {
    body.tools = options.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: { ...(tool.parameters ?? { type: 'object' }) },
      strict: false,
    }));
  }
  return body;
}

/**
 * OpenAI Responses: system items become `system` (or `developer`) message items at the start; each native
 * tool pair becomes a `function_call` item directly followed by its `function_call_output`, so appending a
 * tool item only appends input items (stable prefix for automatic caching).
 */
export const openaiResponses: Provider<'openai-responses'> = {
  name: 'openai-responses',
  render(items: readonly ContextItem[], options: ProviderOptions): OpenAIResponsesRequest {
    const plan = planItems(items);
    checkEnding('openai-responses', items.length, plan, options);
    return buildOpenAIResponses(plan, options);
  },
};
