import type { Node } from '@ctxgit/dag';
import type { Tokenizer } from '@ctxgit/tokenize';
import { RulesInputError } from './errors.js';
import type { Block, ContextItem } from './item.js';
import { itemText } from './item-text.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Converts one DAG node into a `full` item with reason `new`; the item key is the node id.
 *
 * A `user`, `system` or `assistant` node becomes one text block. A `tool` node becomes
 * `[tool_call, tool_result]`: the call id is `metadata.callId` or the node id, the arguments are the JSON
 * text of `input` (`{}` when absent), and `isError` comes from `metadata.isError`. `metadata.pinned === true`
 * pins the item, `metadata.anchor === true` marks it an anchor. `touchedAt` is the node's `createdAt`.
 *
 * @param node - The node to convert.
 * @param tokenizer - Counts the item's tokens.
 * @returns The new item.
 * @throws RulesInputError when the role is unknown or a tool node has no name.
 * @example
 * ```ts
 * const item = itemFromNode(
 *   { id: 'n2', session: 's', seq: 2, createdAt: 0, role: 'tool', name: 'bash', input: { cmd: 'ls' },
 *     output: 'a.txt', caller: 'n1', metadata: { callId: 'c1' } },
 *   tokenizer,
 * );
 * item.blocks; // [{ type: 'tool_call', id: 'c1', name: 'bash', arguments: '{"cmd":"ls"}' },
 *              //  { type: 'tool_result', callId: 'c1', name: 'bash', output: 'a.txt', isError: false }]
 * ```
 */
export function itemFromNode(node: Node, tokenizer: Tokenizer): ContextItem {
  return itemOfNode(node, (blocks) => tokenizer.count(itemText(blocks)));
}

/** {@link itemFromNode} with the tokens counted by `countTokens` (the runner's memoized count). */
export function itemOfNode(node: Node, countTokens: (blocks: readonly Block[]) => number): ContextItem {
  if (!ROLES.has(node.role)) throw new RulesInputError(`node ${node.id}`, `unknown role "${String(node.role)}"`);
  if (typeof node.output !== 'string') throw new RulesInputError(`node ${node.id}`, 'output must be a string');
  const meta = node.metadata ?? {};
  let blocks: readonly Block[];
  if (node.role === 'tool') {
    const name = node.name;
    if (typeof name !== 'string' || name === '') throw new RulesInputError(`node ${node.id}`, 'a tool node needs a name');
    const callId = typeof meta['callId'] === 'string' ? meta['callId'] : node.id;
    blocks = [
      { type: 'tool_call', id: callId, name, arguments: JSON.stringify(node.input ?? {}) },
      { type: 'tool_result', callId, name, output: node.output, isError: meta['isError'] === true },
    ];
  } else {
    blocks = [{ type: 'text', text: node.output }];
  }
  return {
    key: node.id,
    sourceNodeId: node.id,
    role: node.role,
    state: 'full',
    locked: false,
    blocks,
    tokens: countTokens(blocks),
    reason: 'new',
    touchedAt: node.createdAt,
    ...(meta['pinned'] === true ? { pinned: true } : {}),
    ...(meta['anchor'] === true ? { isAnchor: true } : {}),
    ...(node.role === 'tool' && node.caller !== undefined ? { caller: node.caller } : {}),
    ...(node.role === 'tool' ? { outputChars: node.output.length } : {}),
  };
}
