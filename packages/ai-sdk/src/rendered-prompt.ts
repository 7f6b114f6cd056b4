import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ContextCommit } from '@ctxgit/commit';
import type { OpenAIChatRequest } from '@ctxgit/render';

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A commit rendered for OpenAI Chat, as the AI SDK's provider-neutral prompt: system (and developer) messages as
 * system messages, tool calls as `tool-call` parts, each tool message as a `tool-result` part (`error-text` when
 * the commit's item says the call failed). @internal
 */
export function renderedPrompt(commit: ContextCommit, body: OpenAIChatRequest): LanguageModelV3Prompt {
  const failed = new Set<string>();
  for (const item of commit.items) for (const block of item.blocks) if (block.type === 'tool_result' && block.isError) failed.add(block.callId);
  const names = new Map<string, string>();
  const prompt: LanguageModelV3Message[] = [];
  for (const m of body.messages) {
    if (m.role === 'user') prompt.push({ role: 'user', content: [{ type: 'text', text: m.content }] });
    else if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map((c) => {
        names.set(c.id, c.function.name);
        return { type: 'tool-call' as const, toolCallId: c.id, toolName: c.function.name, input: parsed(c.function.arguments) };
      });
      prompt.push({ role: 'assistant', content: [...(m.content === null || m.content === '' ? [] : [{ type: 'text' as const, text: m.content }]), ...calls] });
    } else if (m.role === 'tool') {
      const part = { type: 'tool-result' as const, toolCallId: m.tool_call_id, toolName: names.get(m.tool_call_id) ?? '', output: { type: failed.has(m.tool_call_id) ? ('error-text' as const) : ('text' as const), value: m.content } };
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(part);
      else prompt.push({ role: 'tool', content: [part] });
    } else prompt.push({ role: 'system', content: m.content });
  }
  return prompt;
}
