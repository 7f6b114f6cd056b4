import { describe, expect, it } from 'vitest';
import { itemFromNode, RulesInputError } from '../src/index.js';
import { quarterTokenizer } from './helpers.js';

describe('itemFromNode', () => {
  it('turns a text node into one text block', () => {
    expect(itemFromNode({ id: 'u1', session: 's', seq: 1, createdAt: 5, role: 'user', output: 'hello there' }, quarterTokenizer)).toEqual({
      key: 'u1',
      sourceNodeId: 'u1',
      role: 'user',
      state: 'full',
      locked: false,
      blocks: [{ type: 'text', text: 'hello there' }],
      tokens: 3,
      reason: 'new',
      touchedAt: 5,
    });
  });

  it('turns a tool node into call + result, with callId, isError, caller and pin', () => {
    const item = itemFromNode(
      {
        id: 't1', session: 's', seq: 2, createdAt: 7, role: 'tool', name: 'bash', input: { cmd: 'ls' },
        output: 'a.txt', caller: 'a1', metadata: { callId: 'c1', isError: true, pinned: true },
      },
      quarterTokenizer,
    );
    expect(item).toEqual({
      key: 't1',
      sourceNodeId: 't1',
      role: 'tool',
      state: 'full',
      locked: false,
      blocks: [
        { type: 'tool_call', id: 'c1', name: 'bash', arguments: '{"cmd":"ls"}' },
        { type: 'tool_result', callId: 'c1', name: 'bash', output: 'a.txt', isError: true },
      ],
      tokens: Math.ceil('bash({"cmd":"ls"})\na.txt'.length / 4),
      reason: 'new',
      touchedAt: 7,
      pinned: true,
      caller: 'a1',
      outputChars: 5,
    });
  });

  it('uses the node id as call id and {} for missing input', () => {
    const item = itemFromNode({ id: 't2', session: 's', seq: 1, createdAt: 0, role: 'tool', name: 'x', output: '', caller: 'a' }, quarterTokenizer);
    expect(item.blocks).toEqual([
      { type: 'tool_call', id: 't2', name: 'x', arguments: '{}' },
      { type: 'tool_result', callId: 't2', name: 'x', output: '', isError: false },
    ]);
  });

  it('refuses unknown roles and nameless tools', () => {
    expect(() => itemFromNode({ id: 'x', session: 's', seq: 1, createdAt: 0, role: 'robot' as 'user', output: '' }, quarterTokenizer)).toThrow(RulesInputError);
    expect(() => itemFromNode({ id: 'x', session: 's', seq: 1, createdAt: 0, role: 'tool', output: '' }, quarterTokenizer)).toThrow(/needs a name/);
  });
});
