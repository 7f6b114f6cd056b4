// The checkpointer converts only the messages a put brings (a HistoryMemo per thread): checked against the plain
// conversion on versions of a message list that keep, replace, drop and add messages, as LangGraph's reducers do.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { HistoryMemo, messagesToHistory } from '../src/messages-to-history.js';

/** A round: a question, an answer calling `calls` tools (each answered), or a plain answer. */
function round(n: number, calls: number): BaseMessage[] {
  const ids = Array.from({ length: calls }, (_, i) => `call-${n}-${i}`);
  const ai = new AIMessage({ content: `a${n}`, tool_calls: ids.map((id, i) => ({ id, name: 'read', args: { path: `f${n}`, i } })) });
  return [new HumanMessage({ content: `q${n}`, id: `h${n}` }), ai, ...ids.map((id) => new ToolMessage({ content: `r ${id}`, tool_call_id: id }))];
}

type Change = { kind: 'add'; calls: number } | { kind: 'replace'; at: number } | { kind: 'trim'; at: number } | { kind: 'same' };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), calls: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('trim' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('same' as const) }),
);

/** The next version of the list: kept messages are the same objects, a replaced one a new object (an AI message keeps its calls, so its answers stay valid). */
function apply(list: readonly BaseMessage[], c: Change, n: number): BaseMessage[] {
  if (c.kind === 'add') return [...list, ...round(n, c.calls)];
  if (c.kind === 'same' || list.length === 0) return [...list];
  const at = c.at % list.length;
  const m = list[at] as BaseMessage;
  if (c.kind === 'trim') return m.getType() === 'human' ? list.slice(0, at + 1) : [...list];
  const type = m.getType();
  const copy =
    type === 'ai'
      ? new AIMessage({ content: `${String(m.content)}'`, tool_calls: (m as AIMessage).tool_calls ?? [] })
      : type === 'tool'
        ? new ToolMessage({ content: `${String(m.content)}'`, tool_call_id: (m as ToolMessage).tool_call_id })
        : type === 'system'
          ? new SystemMessage(`${String(m.content)}'`)
          : new HumanMessage(`${String(m.content)}'`);
  return list.map((x, i) => (i === at ? copy : x));
}

it('property: with the memo, each version converts as the plain conversion does, and a message kept at its place gives the same entry object', () => {
  fc.assert(
    fc.property(fc.array(change, { minLength: 1, maxLength: 12 }), (changes) => {
      const memo = new HistoryMemo();
      let list: BaseMessage[] = [new SystemMessage('be brief')];
      let before: { list: readonly BaseMessage[]; entries: readonly unknown[] } | undefined;
      for (const [n, c] of changes.entries()) {
        list = apply(list, c, n);
        const entries = memo.convert(list);
        expect(entries).toEqual(messagesToHistory(list));
        if (entries === undefined) continue;
        // kept at its place, and a tool message still answering the same AI message object: the same entry
        const prev = before;
        if (prev !== undefined) {
          list.forEach((m, i) => {
            if (prev.list[i] !== m || m.getType() === 'tool') return;
            expect(entries[i]).toBe(prev.entries[i]);
          });
        }
        before = { list, entries };
      }
    }),
    { numRuns: 200 },
  );
});

it('a tool message converts again when the AI message it answers is a new object (its call may have new arguments)', () => {
  const memo = new HistoryMemo();
  const human = new HumanMessage('q');
  const result = new ToolMessage({ content: 'r', tool_call_id: 'c1' });
  const first = memo.convert([human, new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read', args: { path: 'a' } }] }), result]);
  const second = memo.convert([human, new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read', args: { path: 'b' } }] }), result]);
  expect(second?.[0]).toBe(first?.[0]);
  expect(second?.[2]).not.toBe(first?.[2]);
  expect(second?.[2]?.input).toEqual({ path: 'b' });
});

it('a list that goes on from the last one converts only its new messages; anything but messages after them is no history', () => {
  const memo = new HistoryMemo();
  const list = [new SystemMessage('be brief'), ...round(0, 1)];
  const first = memo.convert(list);
  const longer = [...list, ...round(1, 2)];
  const second = memo.convert(longer);
  expect(second).toEqual(messagesToHistory(longer));
  expect(second?.slice(0, list.length).every((e, i) => e === first?.[i])).toBe(true);
  expect(memo.convert([...longer, 'not a message'])).toBeUndefined();
  // a tool message answering no open call: no history either, and the memo goes on from the last good list
  expect(memo.convert([...longer, new ToolMessage({ content: 'r', tool_call_id: 'nobody' })])).toBeUndefined();
  expect(memo.convert([...longer, new HumanMessage('next')])).toEqual(messagesToHistory([...longer, new HumanMessage('next')]));
});
