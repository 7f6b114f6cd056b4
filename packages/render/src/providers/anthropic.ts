import type { ContextItem } from '@ctxgit/rules';
import { OPENING_USER_TEXT } from '../markers.js';
import { plan as planItems, type Plan, type PlanPart } from '../plan.js';
import type { Provider } from '../provider.js';
import type { ProviderOptions } from '../render-options.js';
import type {
  AnthropicAssistantMessage,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicUserMessage,
} from './anthropic-types.js';
import { checkEnding } from './ending.js';

/** Most breakpoints a Messages request may carry. */
export const MAX_CACHE_BREAKPOINTS = 4;

const DECLARED_BY_CTXGIT = 'Declared by ctxgit: a tool called earlier in this conversation.';

function toBlock(part: PlanPart): AnthropicContentBlock {
  if (part.kind === 'text') return { type: 'text', text: part.text };
  if (part.kind === 'call') return { type: 'tool_use', id: part.id, name: part.name, input: { ...part.input } };
  return part.isError
    ? { type: 'tool_result', tool_use_id: part.callId, content: part.output, is_error: true }
    : { type: 'tool_result', tool_use_id: part.callId, content: part.output };
}

interface Placed {
  readonly block: AnthropicContentBlock;
  /** Tokens of the prefix up to and including this block. */
  readonly prefix: number;
  readonly key: string;
}

/**
 * Builds the Messages body from a plan (no ending check). Consecutive same-role messages are merged into one
 * message's content blocks (tool results come first in a user turn, as they directly follow the tool use);
 * a leading assistant message gets {@link OPENING_USER_TEXT} as the user turn before it.
 */
export function buildAnthropic(plan: Plan, options: ProviderOptions): AnthropicRequest {
  const system: AnthropicTextBlock[] = plan.system.map((part) => ({ type: 'text', text: part.text }));
  const placed: Placed[] = [];
  let prefix = 0;
  plan.system.forEach((part, index) => {
    prefix += part.tokens;
    placed.push({ block: system[index] as AnthropicTextBlock, prefix, key: part.key });
  });
  const messages: AnthropicMessage[] = [];
  const leading = plan.messages[0];
  if (leading !== undefined && leading.role === 'assistant') {
    messages.push({ role: 'user', content: [{ type: 'text', text: OPENING_USER_TEXT }] });
  }
  for (const message of plan.messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    let target = messages[messages.length - 1];
    if (target === undefined || target.role !== role) {
      target = role === 'assistant' ? ({ role, content: [] } satisfies AnthropicAssistantMessage) : ({ role, content: [] } satisfies AnthropicUserMessage);
      messages.push(target);
    }
    for (const part of message.parts) {
      const block = toBlock(part);
      (target.content as AnthropicContentBlock[]).push(block);
      prefix += part.tokens;
      placed.push({ block, prefix, key: part.key });
    }
  }
  const body: AnthropicRequest =
    system.length > 0
      ? { model: options.model, max_tokens: options.maxTokens, system, messages }
      : { model: options.model, max_tokens: options.maxTokens, messages };
  const tools = declaredTools(plan, options);
  if (tools.length > 0) body.tools = tools;
  if (options.allowAssistantLast) trimPrefill(messages);
  if (options.cache) placeBreakpoints(placed, system, messages, plan.lastSummaryKey, options.minCacheableTokens);
  return body;
}

function declaredTools(plan: Plan, options: ProviderOptions): AnthropicTool[] {
  const tools: AnthropicTool[] = options.tools.map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: { ...tool.parameters, type: 'object' },
  }));
  const declared = new Set(tools.map((tool) => tool.name));
  for (const name of plan.toolNames) {
    if (!declared.has(name)) tools.push({ name, description: DECLARED_BY_CTXGIT, input_schema: { type: 'object' } });
  }
  return tools;
}

/** A final assistant message is a prefill, which the API rejects with trailing whitespace. */
function trimPrefill(messages: AnthropicMessage[]): void {
  const last = messages[messages.length - 1];
  const block = last?.content[last.content.length - 1];
  if (last?.role === 'assistant' && block?.type === 'text') block.text = block.text.trimEnd();
}

/**
 * Breakpoints, in order, at most {@link MAX_CACHE_BREAKPOINTS}: end of system; end of the folded region
 * (last block of the last summary item); end of the previous turn (last block of the second-to-last
 * message); end of the request (last block of a final user message). A candidate whose prefix (sum of the
 * `tokens` of the items up to it) is below `minimum` is dropped; duplicates are placed once.
 */
function placeBreakpoints(
  placed: readonly Placed[],
  system: readonly AnthropicTextBlock[],
  messages: readonly AnthropicMessage[],
  lastSummaryKey: string | undefined,
  minimum: number,
): void {
  const lastBlock = (message: AnthropicMessage | undefined): AnthropicContentBlock | undefined => message?.content[message.content.length - 1];
  let summaryEnd: AnthropicContentBlock | undefined;
  if (lastSummaryKey !== undefined) {
    for (const entry of placed) if (entry.key === lastSummaryKey) summaryEnd = entry.block;
  }
  const final = messages[messages.length - 1];
  const candidates = [
    system[system.length - 1],
    summaryEnd,
    lastBlock(messages[messages.length - 2]),
    final?.role === 'user' ? lastBlock(final) : undefined,
  ];
  const prefixOf = new Map(placed.map((entry) => [entry.block, entry.prefix]));
  const chosen = new Set<AnthropicContentBlock>();
  for (const block of candidates) {
    if (block === undefined || chosen.size >= MAX_CACHE_BREAKPOINTS) continue;
    if ((prefixOf.get(block) ?? 0) >= minimum) chosen.add(block);
  }
  for (const block of chosen) block.cache_control = { type: 'ephemeral' };
}

/**
 * Anthropic Messages: system items become the top-level `system` array of text blocks; messages alternate
 * user/assistant (same-role content merged); native tool pairs become `tool_use` blocks in the assistant
 * turn and `tool_result` blocks at the start of the next user turn; every tool used is declared in `tools`.
 */
export const anthropic: Provider<'anthropic'> = {
  name: 'anthropic',
  render(items: readonly ContextItem[], options: ProviderOptions): AnthropicRequest {
    const plan = planItems(items);
    checkEnding('anthropic', items.length, plan, options);
    return buildAnthropic(plan, options);
  },
};
