import { get_encoding } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageSizeUnknownError, InvalidRequestError, countRequest, estimateTokenizer, imageTokens, loadTokenizer, messageOverhead } from '../src/index.js';
import type { Tokenizer } from '../src/index.js';

let tok: Tokenizer;
const oracle = get_encoding('o200k_base');
const n = (text: string): number => oracle.encode(text, [], []).length;
beforeAll(async () => {
  tok = await loadTokenizer('o200k_base');
});
afterAll(() => oracle.free());

describe('imageTokens', () => {
  it('follows the OpenAI tile rule and the Anthropic area rule', () => {
    expect(imageTokens('openai', { width: 1024, height: 1024, detail: 'high' })).toBe(765);
    expect(imageTokens('openai', { width: 2048, height: 4096, detail: 'high' })).toBe(1105);
    expect(imageTokens('openai', { width: 512, height: 512 })).toBe(255);
    expect(imageTokens('openai', { width: 4096, height: 4096, detail: 'low' })).toBe(85);
    expect(imageTokens('anthropic', { width: 1000, height: 1000 })).toBe(1334);
    expect(imageTokens('anthropic', { width: 200, height: 200 })).toBe(54);
    expect(imageTokens('anthropic', { width: 4000, height: 3000 })).toBe(1600);
    expect(() => imageTokens('openai', { width: 0, height: 10 })).toThrow(InvalidRequestError);
  });
});

describe('countRequest openai-chat', () => {
  it('applies the cookbook rule to text messages', () => {
    const messages = [
      { role: 'system', content: 'You are a helpful, pattern-following assistant.' },
      { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
      { role: 'user', content: 'This late pivot means we don\'t have time to boil the ocean.' },
    ];
    const expected = messages.reduce((sum, m) => sum + 3 + n(m.role) + n(m.content) + (m.name === undefined ? 0 : 1 + n(m.name)), 3);
    const count = countRequest('openai-chat', { model: 'gpt-4o', messages }, tok);
    expect(count.total).toBe(expected);
    expect(count).toMatchObject({ estimated: false, tools: 0, images: 0, overhead: 3 });
    expect(count.perMessage).toEqual(messages.map((m) => 3 + n(m.role) + n(m.content) + (m.name === undefined ? 0 : 1 + n(m.name))));
  });

  it('counts tool calls, tool results, tool definitions and images', () => {
    const body = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }, { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'low' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '{"temp":21}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Get the weather.',
            parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string', description: 'Unit', enum: ['c', 'f'] } } },
          },
        },
      ],
    };
    const count = countRequest('openai-chat', body, tok, { imageSize: () => ({ width: 100, height: 100 }) });
    expect(count.images).toBe(85);
    const tools = 7 + n('get_weather:Get the weather') + 3 + 3 + n('city:string:City name') + 3 - 3 + 3 + n('c') + 3 + n('f') + n('unit:string:Unit') + 12;
    expect(count.tools).toBe(tools);
    const messages = 3 + n('user') + n('weather?') + (3 + n('assistant') + 3 + n('get_weather') + n('{"city":"Paris"}')) + (3 + n('tool') + n('{"temp":21}'));
    expect(count.messages).toBe(messages);
    expect(count.total).toBe(messages + tools + 85 + 3);
    expect(count.perMessage[0]).toBe(3 + n('user') + n('weather?') + 85);
  });

  it('refuses images without a size and malformed bodies, naming the path', () => {
    const img = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:x' } }] }] };
    expect(() => countRequest('openai-chat', img, tok)).toThrow(ImageSizeUnknownError);
    expect(() => countRequest('openai-chat', img, tok)).toThrow(/messages\[0\]\.content\[0\]/);
    const sized = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:x', detail: 'high', width: 1024, height: 1024 } }] }] };
    expect(countRequest('openai-chat', sized, tok).images).toBe(765);
    expect(() => countRequest('openai-chat', { messages: 'hi' }, tok)).toThrow(InvalidRequestError);
    expect(() => countRequest('openai-chat', { messages: [{ role: 'user', content: 5 }] }, tok)).toThrow(/messages\[0\]\.content/);
    expect(() => countRequest('openai-chat', { messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, tok)).toThrow(InvalidRequestError);
    expect(() => countRequest('gemini' as 'openai-chat', { messages: [] }, tok)).toThrow(/format/);
    expect(() => countRequest('openai-chat', null, tok)).toThrow(InvalidRequestError);
  });
});

describe('countRequest openai-responses', () => {
  it('counts instructions, messages, function calls and outputs', () => {
    const body = {
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'hi there' }] },
        { type: 'function_call', call_id: 'c', name: 'ls', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: 'a.txt' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
      ],
      tools: [{ type: 'function', name: 'ls', description: 'List', parameters: { type: 'object', properties: {} } }],
    };
    const count = countRequest('openai-responses', body, tok);
    expect(count.perMessage).toEqual([3 + n('system') + n('Be brief.'), 3 + n('user') + n('hi there'), 3 + n('ls') + n('{}'), 3 + n('tool') + n('a.txt'), 3 + n('assistant') + n('done')]);
    expect(count.tools).toBe(7 + n('ls:List') + 12);
    expect(count.total).toBe(count.perMessage.reduce((a, b) => a + b, 0) + count.tools + 3);
    expect(countRequest('openai-responses', { input: 'hello' }, tok).total).toBe(3 + n('user') + n('hello') + 3);
    expect(() => countRequest('openai-responses', { input: [{ type: 'reasoning', summary: [] }] }, tok)).toThrow(/input\[0\]\.type/);
  });
});

describe('countRequest anthropic-messages', () => {
  it('is always estimated and counts blocks, tools and the tool-use prompt', () => {
    const e = (text: string): number => estimateTokenizer.count(text);
    const tool = { name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
    const body = {
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: 'read a.txt' },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'tool_use', id: 't', name: 'read', input: { path: 'a.txt' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'hello' }] }, { type: 'image', source: { type: 'url', url: 'u' }, width: 1000, height: 1000 }] },
      ],
      tools: [tool],
    };
    const count = countRequest('anthropic-messages', body, estimateTokenizer);
    expect(count.estimated).toBe(true);
    expect(count.overhead).toBe(346);
    expect(count.tools).toBe(e(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.input_schema })));
    expect(count.images).toBe(1334);
    expect(count.perMessage).toEqual([
      3 + e('You are terse.'),
      3 + e('read a.txt'),
      3 + e('ok') + 3 + e('read') + e('{"path":"a.txt"}'),
      3 + 3 + e('hello') + 1334,
    ]);
    expect(countRequest('anthropic-messages', { ...body, tool_choice: { type: 'any' } }, estimateTokenizer).overhead).toBe(313);
    expect(countRequest('anthropic-messages', { messages: [] }, tok).estimated).toBe(true);
    expect(() => countRequest('anthropic-messages', { messages: [{ role: 'user', content: [{ type: 'document' }] }] }, estimateTokenizer)).toThrow(InvalidRequestError);
    expect(() => countRequest('anthropic-messages', { messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }] }, estimateTokenizer)).toThrow(ImageSizeUnknownError);
  });
});

describe('messageOverhead', () => {
  it('covers what countRequest adds to the text of an OpenAI chat body (message wrappers, tool calls, priming)', async () => {
    const tok = await loadTokenizer('o200k_base');
    const o = messageOverhead('openai-chat');
    const body = {
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'List the files.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'a.txt b.txt' },
      ],
    };
    const texts = ['You are terse.', 'List the files.', 'ls', '{"path":"."}', 'a.txt b.txt'];
    const text = texts.reduce((s, t) => s + tok.count(t), 0);
    // 3 items (system, user, tool item) and one tool call; the assistant message carrying the call has no text.
    const estimate = text + 3 * o.perMessage + o.perToolCall + o.perRequest + o.perMessage;
    expect(countRequest('openai-chat', body, tok).total).toBeLessThanOrEqual(estimate);
    expect(messageOverhead('anthropic-messages').perToolCall).toBe(6);
    expect(() => messageOverhead('grpc' as never)).toThrow(expect.objectContaining({ code: 'E_TOKENIZE_INVALID_OPTION' }));
  });
});
