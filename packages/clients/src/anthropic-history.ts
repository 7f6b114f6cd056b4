import type { HistoryEntry } from '@ctxgit/commit';
import type { Json } from '@ctxgit/dag';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { textOf } from './text-of.js';

/**
 * Anthropic Messages as a ctxgit history: the `system` text is a system node; user and assistant messages become
 * nodes of their role (text blocks only); each `tool_use` block of an assistant message becomes, with the
 * `tool_result` block that answers it, one `tool` node right after the assistant (`metadata.callId`, `isError`).
 * Calls not answered yet are left out.
 *
 * @param body - the `system` and `messages` of a `messages.create()` call
 * @returns the entries for `Session.appendNew`
 * @example
 * ```ts
 * anthropicHistory({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
 * // [{ role: 'system', output: 'Be brief.' }, { role: 'user', output: 'hi' }]
 * ```
 */
export function anthropicHistory(body: Pick<MessageCreateParamsNonStreaming, 'system' | 'messages'>): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  const system = textOf(body.system);
  if (system !== '') entries.push({ role: 'system', output: system });
  const results = new Map<string, { output: string; isError: boolean }>();
  for (const m of body.messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const block of m.content) if (block.type === 'tool_result') results.set(block.tool_use_id, { output: textOf(block.content), isError: block.is_error === true });
  }
  for (const m of body.messages) {
    const output = textOf(m.content);
    const uses = typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    const onlyResults = m.role === 'user' && typeof m.content !== 'string' && m.content.every((b) => b.type === 'tool_result');
    if (onlyResults) continue;
    entries.push({ role: m.role, output });
    const caller = entries.length - 1;
    for (const use of uses) {
      const result = results.get(use.id);
      if (result === undefined) continue;
      entries.push({ role: 'tool', name: use.name, input: JSON.parse(JSON.stringify(use.input ?? {})) as Json, output: result.output, caller, metadata: { callId: use.id, isError: result.isError } });
    }
  }
  return entries;
}
