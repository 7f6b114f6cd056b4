import { describe, expect, it } from 'vitest';
import { validateRequest } from '../src/index.js';

const codes = (provider: Parameters<typeof validateRequest>[0], body: unknown, allowAssistantLast = false): string[] =>
  validateRequest(provider, body, { allowAssistantLast }).map((issue) => issue.code);

const call = (id: string, name = 'bash', args = '{}') => ({ id, type: 'function', function: { name, arguments: args } });

describe('validateRequest: openai-chat', () => {
  it('accepts a well-formed tool exchange', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] }, { role: 'tool', tool_call_id: 'b', content: '' }, { role: 'tool', tool_call_id: 'a', content: 'x' }] };
    expect(codes('openai-chat', body)).toEqual([]);
  });

  it('finds broken pairing, ids, roles, content and endings', () => {
    expect(codes('openai-chat', { model: 'm', messages: [] })).toEqual(['E_NO_MESSAGES']);
    expect(codes('openai-chat', { model: '', messages: [{ role: 'robot', content: 'x' }] })).toEqual(['E_MODEL', 'E_ROLE', 'E_NO_MESSAGES']);
    expect(codes('openai-chat', { model: 'm', messages: [{ role: 'user', content: '' }] })).toEqual(['E_EMPTY_CONTENT']);
    expect(codes('openai-chat', { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [call('a')] }, { role: 'user', content: 'x' }] })).toEqual(['E_TOOL_UNANSWERED']);
    expect(codes('openai-chat', { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'zz', content: 'x' }] })).toEqual(['E_TOOL_ORPHAN']);
    expect(codes('openai-chat', { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [call('a'), call('a', 'bad name', 'nope')] }, { role: 'tool', tool_call_id: 'a', content: 'x' }] })).toEqual([
      'E_TOOL_ID',
      'E_TOOL_NAME',
      'E_TOOL_ARGUMENTS',
    ]);
    expect(codes('openai-chat', { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }] })).toEqual(['E_ENDING']);
    expect(codes('openai-chat', { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }] }, true)).toEqual([]);
  });
});

describe('validateRequest: openai-responses', () => {
  it('finds outputs before calls, unanswered and duplicate calls', () => {
    const fc = (id: string) => ({ type: 'function_call', call_id: id, name: 'bash', arguments: '{}' });
    const out = (id: string) => ({ type: 'function_call_output', call_id: id, output: 'x' });
    expect(codes('openai-responses', { model: 'm', input: [{ role: 'user', content: 'go' }, fc('a'), out('a')] })).toEqual([]);
    expect(codes('openai-responses', { model: 'm', input: [out('a'), fc('a')] })).toEqual(['E_TOOL_ORPHAN', 'E_TOOL_UNANSWERED']);
    expect(codes('openai-responses', { model: 'm', input: [fc('a'), fc('a'), out('a')] })).toEqual(['E_TOOL_ID']);
    expect(codes('openai-responses', { model: 'm', input: [{ type: 'message', role: 'tool', content: 'x' }, { type: 'weird' }] })).toEqual(['E_ROLE', 'E_ITEM', 'E_NO_MESSAGES']);
    expect(codes('openai-responses', { model: 'm', input: [{ type: 'message', role: 'user', content: 'x' }, { type: 'message', role: 'assistant', content: 'y' }] })).toEqual(['E_ENDING']);
  });
});

describe('validateRequest: anthropic', () => {
  const tools = [{ name: 'bash', input_schema: { type: 'object' } }];
  const use = (id: string) => ({ type: 'tool_use', id, name: 'bash', input: {} });
  const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'x' });
  const text = (t: string) => ({ type: 'text', text: t });

  it('accepts a well-formed exchange', () => {
    const body = { model: 'm', max_tokens: 10, tools, system: [text('s')], messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [text('ok'), use('a')] }, { role: 'user', content: [result('a'), text('more')] }] };
    expect(codes('anthropic', body)).toEqual([]);
  });

  it('finds alternation, first role, pairing, ordering, declarations and breakpoint violations', () => {
    const base = { model: 'm', max_tokens: 10, tools };
    expect(codes('anthropic', { ...base, messages: [{ role: 'assistant', content: 'x' }, { role: 'user', content: 'y' }] })).toEqual(['E_FIRST_ROLE']);
    expect(codes('anthropic', { ...base, messages: [{ role: 'user', content: 'x' }, { role: 'user', content: 'y' }] })).toEqual(['E_ALTERNATION']);
    expect(codes('anthropic', { ...base, messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [use('a')] }, { role: 'user', content: [text('y')] }] })).toEqual(['E_TOOL_UNANSWERED']);
    expect(codes('anthropic', { ...base, messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [use('a')] }, { role: 'user', content: [text('y'), result('a')] }] })).toEqual(['E_TOOL_ORDER']);
    expect(codes('anthropic', { ...base, messages: [{ role: 'user', content: [result('a')] }] })).toEqual(['E_TOOL_ORPHAN']);
    expect(codes('anthropic', { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [use('a')] }, { role: 'user', content: [result('a')] }] })).toEqual([
      'E_TOOL_UNDECLARED',
      'E_TOOL_UNDECLARED',
    ]);
    expect(codes('anthropic', { ...base, messages: [{ role: 'user', content: [text(' ')] }] })).toEqual(['E_EMPTY_CONTENT']);
    const cached = { type: 'text', text: 'c', cache_control: { type: 'ephemeral' } };
    expect(codes('anthropic', { ...base, system: [cached, cached, cached], messages: [{ role: 'user', content: [cached, cached] }] })).toEqual(['E_CACHE_CONTROL']);
    expect(codes('anthropic', { ...base, max_tokens: 0, messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y ' }] }, true)).toEqual(['E_MAX_TOKENS', 'E_PREFILL_WHITESPACE']);
    expect(codes('anthropic', { ...base, messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }] })).toEqual(['E_ENDING']);
  });
});

describe('validateRequest: text', () => {
  it('accepts a non-empty string only', () => {
    expect(codes('text', 'x')).toEqual([]);
    expect(codes('text', '')).toEqual(['E_BODY']);
    expect(codes('text', {})).toEqual(['E_BODY']);
  });
});
