import type { ContextCommit } from '@ctxgit/commit';
import type { Block, ContextItem, ItemState } from '@ctxgit/rules';

type Extra = Partial<Omit<ContextItem, 'key' | 'role' | 'blocks'>>;

const base = (key: string, role: ContextItem['role'], blocks: readonly Block[], extra: Extra): ContextItem => ({
  key,
  sourceNodeId: key,
  role,
  state: 'full',
  locked: false,
  blocks,
  tokens: 10,
  reason: 'new',
  touchedAt: 0,
  ...extra,
});

export const user = (key: string, text: string, extra: Extra = {}): ContextItem => base(key, 'user', [{ type: 'text', text }], extra);
export const assistant = (key: string, text: string, extra: Extra = {}): ContextItem => base(key, 'assistant', [{ type: 'text', text }], extra);
export const system = (key: string, text: string, extra: Extra = {}): ContextItem => base(key, 'system', [{ type: 'text', text }], extra);
export const summary = (key: string, text: string, extra: Extra = {}): ContextItem =>
  base(key, 'assistant', [{ type: 'text', text }], { state: 'summary', ...extra });
export const tool = (key: string, name: string, args: string, output: string, extra: Extra & { callId?: string; isError?: boolean } = {}): ContextItem => {
  const { callId = `call_${key}`, isError, ...rest } = extra;
  const result: Block = isError === undefined ? { type: 'tool_result', callId, name, output } : { type: 'tool_result', callId, name, output, isError };
  return base(key, 'tool', [{ type: 'tool_call', id: callId, name, arguments: args }, result], rest);
};
export const withState = (item: ContextItem, state: ItemState): ContextItem => ({ ...item, state });

export const commitOf = (items: readonly ContextItem[], model = 'claude-sonnet-4-5'): ContextCommit => ({
  id: 'c'.repeat(40),
  session: 's',
  parentIds: [],
  headNodeId: items[items.length - 1]?.key ?? 'none',
  rulesVersion: 'test',
  model,
  window: 200_000,
  totalTokens: items.reduce((sum, item) => sum + item.tokens, 0),
  items,
  summary: { added: items.length, aged: 0, cleared: 0, folded: 0, firstChangedIndex: 0 },
  createdAt: 0,
});

/** Freezes a value and everything reachable from it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}
