import type { Node } from '@ctxgit/dag';
import type { AssistantContent, ModelMessage, ToolResultPart } from '@ai-sdk/provider-utils';

function outputOf(node: Node): ToolResultPart['output'] {
  const type = node.metadata?.['outputType'];
  if (type === 'json' || type === 'error-json') {
    try {
      return { type, value: JSON.parse(node.output) as never };
    } catch {
      return { type: type === 'json' ? 'text' : 'error-text', value: node.output };
    }
  }
  return { type: node.metadata?.['isError'] === true ? 'error-text' : 'text', value: node.output };
}

/**
 * The nodes of a branch (e.g. `branchView(repo.store, head)`) as AI SDK `ModelMessage[]`, the inverse of
 * {@link modelMessagesToHistory}: each assistant node with its tool nodes becomes an assistant message with its
 * `tool-call` parts followed by one `tool` message with their results.
 *
 * @param nodes - the branch, root first, each assistant followed by its tool nodes
 * @returns the messages
 * @example
 * ```ts
 * const rec = await repo.store.getSession('chat');
 * const messages = nodesToModelMessages(await branchView(repo.store, rec!.head!));
 * await generateText({ model, messages });
 * ```
 */
export function nodesToModelMessages(nodes: readonly Node[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as Node;
    if (node.role === 'system' || node.role === 'user') {
      out.push({ role: node.role, content: node.output });
      continue;
    }
    if (node.role === 'tool') continue;
    const tools: Node[] = [];
    while (nodes[i + 1]?.role === 'tool' && nodes[i + 1]?.caller === node.id) tools.push(nodes[(i += 1)] as Node);
    if (tools.length === 0) {
      out.push({ role: 'assistant', content: node.output });
      continue;
    }
    const callId = (t: Node): string => (typeof t.metadata?.['callId'] === 'string' ? t.metadata['callId'] : t.id);
    const content: Exclude<AssistantContent, string> = node.output === '' ? [] : [{ type: 'text', text: node.output }];
    for (const t of tools) content.push({ type: 'tool-call', toolCallId: callId(t), toolName: t.name ?? '', input: t.input ?? {} });
    out.push({ role: 'assistant', content });
    out.push({ role: 'tool', content: tools.map((t) => ({ type: 'tool-result', toolCallId: callId(t), toolName: t.name ?? '', output: outputOf(t) })) });
  }
  return out;
}
