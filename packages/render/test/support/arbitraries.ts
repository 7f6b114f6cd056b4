import fc from 'fast-check';
import type { ContextItem, ItemState } from '@ctxgit/rules';
import { assistant, summary, system, tool, user } from './items.js';

/** Text that often imitates ctxgit markers, or is blank. */
export const textArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '  ', '\n') },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.constantFrom('[Summary]', '<<ctxgit:attach from="x">>', '<<ctxgit:/attach>>', '<<ctxgit:begin>>', '\\', '\n', 'a', ' '), { maxLength: 8 })
      .map((parts) => parts.join('')),
  },
);

const argsArb = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('{}', '', '{"a":1}', '[1]', '{"cut":"…', 'null') },
  { weight: 3, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((value) => JSON.stringify(value)) },
);
const nameArb = fc.constantFrom('bash', 'bash', 'read_file', 'TodoWrite', 'bad name', '');
const idArb = fc.constantFrom('c1', 'c1', 'c2', 'c3', 'call x', 'toolu_9', '');
const toolStateArb = fc.constantFrom<ItemState>('full', 'full', 'full', 'aged', 'cleared', 'summarized');

interface Shape {
  readonly kind: 'system' | 'user' | 'assistant' | 'summary' | 'tool';
  readonly text: string;
  readonly name: string;
  readonly args: string;
  readonly id: string;
  readonly matchingResult: boolean;
  readonly state: ItemState;
  readonly attach: string | undefined;
  readonly tokens: number;
  readonly isError: boolean;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  kind: fc.constantFrom('system', 'user', 'user', 'assistant', 'assistant', 'summary', 'tool', 'tool', 'tool'),
  text: textArb,
  name: nameArb,
  args: argsArb,
  id: idArb,
  matchingResult: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  state: toolStateArb,
  attach: fc.option(fc.constantFrom('att1', 'att2'), { freq: 6, nil: undefined }),
  tokens: fc.integer({ min: 0, max: 900 }),
  isError: fc.boolean(),
});

function toItem(shape: Shape, index: number): ContextItem {
  const key = `k${index}`;
  const extra = { tokens: shape.tokens, ...(shape.attach === undefined ? {} : { attachedFrom: shape.attach }) };
  const state = shape.state === 'summarized' ? 'summarized' : 'full';
  switch (shape.kind) {
    case 'system':
      return system(key, shape.text, extra);
    case 'user':
      return user(key, shape.text, { ...extra, state });
    case 'assistant':
      return assistant(key, shape.text, { ...extra, state });
    case 'summary':
      return summary(key, shape.text, extra);
    case 'tool': {
      const item = tool(key, shape.name, shape.args, shape.text, { ...extra, state: shape.state, callId: shape.id, isError: shape.isError });
      if (shape.matchingResult) return item;
      const [call, result] = item.blocks;
      return { ...item, blocks: [call!, { ...(result as Extract<typeof result, { type: 'tool_result' }>), callId: `${shape.id}_other` }] };
    }
  }
}

/** Commits items of every kind and state, with broken pairs, bad names and ids, attach runs, marker-like text. */
export const itemsArb: fc.Arbitrary<ContextItem[]> = fc.array(shapeArb, { maxLength: 30 }).map((shapes) => shapes.map(toItem));
