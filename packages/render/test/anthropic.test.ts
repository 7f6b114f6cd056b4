import { describe, expect, it } from 'vitest';
import { MAX_CACHE_BREAKPOINTS, OPENING_USER_TEXT, render, validateRequest, type AnthropicRequest } from '../src/index.js';
import { assistant, commitOf, summary, system, tool, user, withState } from './support/items.js';

const anthropic = (items: Parameters<typeof commitOf>[0], options: { minCacheableTokens?: number; allowAssistantLast?: boolean; cache?: boolean } = {}): AnthropicRequest =>
  render(commitOf(items), { provider: 'anthropic', ...options });

const marked = (body: AnthropicRequest): string[] => {
  const found: string[] = [];
  body.system?.forEach((block, i) => block.cache_control !== undefined && found.push(`system[${i}]`));
  body.messages.forEach((message, i) =>
    message.content.forEach((block, j) => block.cache_control !== undefined && found.push(`messages[${i}].content[${j}]`)),
  );
  return found;
};

describe('anthropic provider', () => {
  it('strips the provider prefix of the model and defaults max_tokens to 4096', () => {
    const body = anthropic([user('u', 'hi')]);
    expect(body.model).toBe('claude-sonnet-4-5');
    expect(body.max_tokens).toBe(4096);
    expect(body).not.toHaveProperty('system');
    expect(body).not.toHaveProperty('tools');
  });

  it('puts system items in the top-level system array and merges consecutive same-role items', () => {
    const body = anthropic([system('s1', 'one'), user('u1', 'a'), user('u2', 'b'), system('s2', 'two'), assistant('a1', 'c'), assistant('a2', 'd'), user('u3', 'e')]);
    expect(body.system).toEqual([{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }]);
    expect(body.messages.map((m) => [m.role, m.content.length])).toEqual([['user', 2], ['assistant', 2], ['user', 1]]);
  });

  it('opens with the documented user marker when the first message would be the assistant’s', () => {
    const body = anthropic([system('s', 'rules'), summary('sm_1', 'earlier'), user('u', 'next')]);
    expect(body.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: OPENING_USER_TEXT }] });
    expect(body.messages[1]?.content[0]).toEqual({ type: 'text', text: '[Summary] earlier' });
  });

  it('puts tool_use in the assistant turn and tool_result first in the next user turn', () => {
    const body = anthropic([user('u', 'go'), assistant('a', 'ok'), tool('t1', 'bash', '{"c":1}', 'out1'), tool('t2', 'bash', '', 'boom', { isError: true }), user('u2', 'and?')]);
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'ok' },
        { type: 'tool_use', id: 'call_t1', name: 'bash', input: { c: 1 } },
        { type: 'tool_use', id: 'call_t2', name: 'bash', input: {} },
      ],
    });
    expect(body.messages[2]?.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(body.messages[2]?.content[1]).toEqual({ type: 'tool_result', tool_use_id: 'call_t2', content: 'boom', is_error: true });
    expect(body.tools).toEqual([{ name: 'bash', description: 'Declared by ctxgit: a tool called earlier in this conversation.', input_schema: { type: 'object' } }]);
  });

  it('synthesizes an assistant turn for tool items no assistant item precedes, and downgrades broken pairs', () => {
    const broken = { ...tool('t3', 'bash', '{}', 'x'), blocks: [tool('t3', 'bash', '{}', 'x').blocks[0]!] };
    const body = anthropic([user('u', 'go'), tool('t1', 'bash', '{}', 'one'), withState(tool('t2', 'bash', '{}', 'two'), 'aged'), broken, user('u2', 'ok')]);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[1]?.content).toEqual([{ type: 'tool_use', id: 'call_t1', name: 'bash', input: {} }]);
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_t1', content: 'one' },
      { type: 'text', text: '[tool_call bash id=call_t2] {}\n[tool_result bash] two' },
      { type: 'text', text: '[tool_call bash id=call_t3] {}' },
      { type: 'text', text: 'ok' },
    ]);
  });

  it('makes duplicate and invalid tool ids unique and valid', () => {
    const body = anthropic([user('u', 'go'), tool('t1', 'bash', '{}', 'a', { callId: 'x.1' }), tool('t2', 'bash', '{}', 'b', { callId: 'x.1' }), user('u2', 'ok')]);
    const ids = body.messages[1]?.content.map((b) => (b.type === 'tool_use' ? b.id : ''));
    expect(ids).toEqual(['x_1', 'x_1_2']);
    expect(validateRequest('anthropic', body)).toEqual([]);
  });

  it('refuses a trailing assistant message unless asked for a prefill, then trims its trailing whitespace', () => {
    expect(() => anthropic([user('u', 'hi'), assistant('a', 'Sure:  \n')])).toThrow(expect.objectContaining({ code: 'E_RENDER_INVALID_ENDING', data: { provider: 'anthropic', lastRole: 'assistant', lastKey: 'a' } }));
    const body = anthropic([user('u', 'hi'), assistant('a', 'Sure:  \n')], { allowAssistantLast: true });
    expect(body.messages[1]?.content).toEqual([{ type: 'text', text: 'Sure:' }]);
    expect(validateRequest('anthropic', body, { allowAssistantLast: true })).toEqual([]);
  });

  describe('cache breakpoints', () => {
    const session = [
      system('s', 'rules', { tokens: 1500 }),
      summary('sm_1', 'folded', { tokens: 600 }),
      user('u1', 'q1', { tokens: 100 }),
      assistant('a1', 'r1', { tokens: 100 }),
      user('u2', 'q2', { tokens: 100 }),
    ];

    it('marks end of system, end of the summary region, end of the previous turn and end of the request', () => {
      expect(marked(anthropic(session))).toEqual(['system[0]', 'messages[1].content[0]', 'messages[3].content[0]', 'messages[4].content[0]']);
    });

    it('never marks a block whose prefix is below the minimum cacheable length', () => {
      expect(marked(anthropic(session, { minCacheableTokens: 2200 }))).toEqual(['messages[3].content[0]', 'messages[4].content[0]']);
      expect(marked(anthropic(session, { minCacheableTokens: 5000 }))).toEqual([]);
      const haiku = render(commitOf(session, 'anthropic:claude-3-5-haiku-latest'), { provider: 'anthropic' });
      expect(marked(haiku)).toEqual(['messages[1].content[0]', 'messages[3].content[0]', 'messages[4].content[0]']);
    });

    it('places at most 4 breakpoints, none when caching is off', () => {
      const long = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? user(`u${i}`, `q${i}`, { tokens: 900 }) : summary(`sm${i}`, `s${i}`, { tokens: 900 })));
      const body = anthropic([system('s', 'rules', { tokens: 3000 }), ...long, user('last', 'q')]);
      expect(marked(body).length).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
      expect(validateRequest('anthropic', body)).toEqual([]);
      expect(marked(anthropic(session, { cache: false }))).toEqual([]);
    });
  });
});
