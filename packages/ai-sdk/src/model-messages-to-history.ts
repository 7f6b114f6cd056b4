import type { HistoryEntry } from '@ctxgit/commit';
import type { Json } from '@ctxgit/dag';
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { ModelMessage, ToolResultPart } from '@ai-sdk/provider-utils';

/** How a tool result's output is kept in its node's text, and whether it is an error. */
function resultText(output: ToolResultPart['output']): { output: string; outputType: string; isError: boolean } {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return { output: output.value, outputType: output.type, isError: output.type === 'error-text' };
    case 'json':
    case 'error-json':
      return { output: JSON.stringify(output.value), outputType: output.type, isError: output.type === 'error-json' };
    case 'execution-denied':
      return { output: output.reason ?? 'execution denied', outputType: output.type, isError: true };
    default:
      return { output: output.value.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(''), outputType: 'content', isError: false };
  }
}

function textOf(content: string | readonly { readonly type: string; readonly text?: string }[]): string {
  return typeof content === 'string' ? content : content.flatMap((p) => (p.type === 'text' && typeof p.text === 'string' ? [p.text] : [])).join('');
}

/**
 * AI SDK messages (`ModelMessage[]`, or the `LanguageModelV3Prompt` a model receives) as a ctxgit history: system,
 * user and assistant messages become nodes of their role (text parts only), and each `tool-call` part of an
 * assistant message becomes, with the `tool-result` part that answers it, one `tool` node right after the assistant:
 * its name, its input, the result as text (JSON values as JSON text), and in `metadata` the `callId`, `isError` and
 * the result's `outputType`. Calls not answered yet are left out (the next call brings them with their results).
 *
 * @param messages - the messages, oldest first
 * @returns the entries for `Session.appendNew`
 * @example
 * ```ts
 * modelMessagesToHistory([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]);
 * // [{ role: 'user', output: 'hi' }, { role: 'assistant', output: 'hello' }]
 * ```
 */
export function modelMessagesToHistory(messages: readonly (ModelMessage | LanguageModelV3Message)[]): HistoryEntry[] {
  const results = new Map<string, ToolResultPart['output']>();
  for (const m of messages) {
    if ((m.role === 'tool' || m.role === 'assistant') && typeof m.content !== 'string') {
      for (const part of m.content) if (part.type === 'tool-result') results.set(part.toolCallId, part.output as ToolResultPart['output']);
    }
  }
  const entries: HistoryEntry[] = [];
  for (const m of messages) {
    if (m.role === 'tool') continue;
    entries.push({ role: m.role, output: textOf(m.content as string | { type: string; text?: string }[]) });
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    const caller = entries.length - 1;
    for (const part of m.content) {
      if (part.type !== 'tool-call') continue;
      const output = results.get(part.toolCallId);
      if (output === undefined) continue;
      const result = resultText(output);
      entries.push({
        role: 'tool',
        name: part.toolName,
        input: JSON.parse(JSON.stringify(part.input ?? {})) as Json,
        output: result.output,
        caller,
        metadata: { callId: part.toolCallId, isError: result.isError, outputType: result.outputType },
      });
    }
  }
  return entries;
}
