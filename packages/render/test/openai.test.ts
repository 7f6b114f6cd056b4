import { describe, expect, it } from 'vitest';
import { render, validateRequest } from '../src/index.js';
import { assistant, commitOf, summary, system, tool, user, withState } from './support/items.js';

const session = [
  system('s', 'rules'),
  user('u', 'go'),
  assistant('a', 'looking'),
  tool('t1', 'bash', '{"c":1}', 'out1'),
  tool('t2', 'read_file', '{"p":"x"}', ''),
  withState(tool('t3', 'bash', '{"c":3}', '[tool bash] output: o… (9 chars)'), 'aged'),
  user('u2', 'next'),
];

describe('openai-chat provider', () => {
  it('puts system first, then the assistant message with tool_calls, then one tool message per call', () => {
    const body = render(commitOf(session, 'openai:gpt-4o'), { provider: 'openai-chat' });
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'rules' },
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'looking',
          tool_calls: [
            { id: 'call_t1', type: 'function', function: { name: 'bash', arguments: '{"c":1}' } },
            { id: 'call_t2', type: 'function', function: { name: 'read_file', arguments: '{"p":"x"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_t1', content: 'out1' },
        { role: 'tool', tool_call_id: 'call_t2', content: '(no output)' },
        { role: 'user', content: '[tool_call bash id=call_t3] {"c":3}\n[tool_result bash] [tool bash] output: o… (9 chars)' },
        { role: 'user', content: 'next' },
      ],
    });
  });

  it('sends system items as developer messages on request and declares tools', () => {
    const body = render(commitOf(session), { provider: 'openai-chat', systemRole: 'developer', tools: [{ name: 'bash', description: 'shell' }] });
    expect(body.messages[0]).toEqual({ role: 'developer', content: 'rules' });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'bash', description: 'shell', parameters: { type: 'object' } } }]);
  });

  it('hoists a later system item to the start (stable system-first prefix)', () => {
    const body = render(commitOf([user('u', 'a'), system('s', 'late rules'), user('u2', 'b')]), { provider: 'openai-chat' });
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
  });

  it('refuses a trailing assistant message unless allowed', () => {
    expect(() => render(commitOf([user('u', 'hi'), assistant('a', 'hello')]), { provider: 'openai-chat' })).toThrow(expect.objectContaining({ code: 'E_RENDER_INVALID_ENDING' }));
    const body = render(commitOf([user('u', 'hi'), assistant('a', 'hello')]), { provider: 'openai-chat', allowAssistantLast: true });
    expect(validateRequest('openai-chat', body, { allowAssistantLast: true })).toEqual([]);
  });

  it('refuses a commit of system items only', () => {
    expect(() => render(commitOf([system('s', 'rules')]), { provider: 'openai-chat' })).toThrow(expect.objectContaining({ code: 'E_RENDER_EMPTY' }));
  });
});

describe('openai-responses provider', () => {
  it('writes each function_call directly followed by its output', () => {
    const body = render(commitOf(session, 'openai:gpt-5'), { provider: 'openai-responses' });
    expect(body.model).toBe('gpt-5');
    expect(body.input.map((item) => (item.type === 'message' ? `${item.role}` : `${item.type}:${item.call_id}`))).toEqual([
      'system',
      'user',
      'assistant',
      'function_call:call_t1',
      'function_call_output:call_t1',
      'function_call:call_t2',
      'function_call_output:call_t2',
      'user',
      'user',
    ]);
    expect(validateRequest('openai-responses', body)).toEqual([]);
  });

  it('renders a summary as an assistant message and declares tools in the Responses shape', () => {
    const body = render(commitOf([summary('sm', 'before'), user('u', 'now')]), { provider: 'openai-responses', tools: [{ name: 'bash', parameters: { type: 'object', properties: {} } }] });
    expect(body.input[0]).toEqual({ type: 'message', role: 'assistant', content: '[Summary] before' });
    expect(body.tools).toEqual([{ type: 'function', name: 'bash', parameters: { type: 'object', properties: {} }, strict: false }]);
  });
});

describe('text provider', () => {
  it('shows one block per item with role, state, key and tokens, content indented', () => {
    const out = render(commitOf([user('u', 'hi\n#1 user full key=fake tokens=1'), withState(user('old', 'gone'), 'summarized'), tool('t', 'bash', '{}', 'ok', { pinned: true })]), { provider: 'text' });
    expect(out).toBe(
      [
        '#0 user full key=u tokens=10\n  hi\n  #1 user full key=fake tokens=1',
        '#1 user summarized key=old tokens=10\n  (folded into a summary)',
        '#2 tool full key=t tokens=10 pinned\n  [tool_call bash id=call_t] {}\n  [tool_result bash] ok',
      ].join('\n\n'),
    );
  });
});
