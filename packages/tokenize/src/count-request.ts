import { countAnthropicMessages } from './count-anthropic-messages.js';
import { countOpenAIChat } from './count-openai-chat.js';
import { countOpenAIResponses } from './count-openai-responses.js';
import { InvalidRequestError } from './errors.js';
import type { CountRequestOptions, RequestCount, RequestFormat } from './request-count.js';
import { RequestWalker, recordAt } from './request-walker.js';
import type { Tokenizer } from './tokenizer.js';

const FORMATS: readonly RequestFormat[] = ['openai-chat', 'openai-responses', 'anthropic-messages'];

/**
 * Counts the input tokens a provider bills for a request body, per its documented rules.
 *
 * @remarks
 * `body` is the plain JSON request body (what `@ctxgit/render` produces); only the fields that cost tokens are read.
 * - `openai-chat` (Chat Completions `{ messages, tools? }`): the OpenAI cookbook rule — per message 3 + role + content,
 *   +1 + name when named; 3 for the reply priming. Tool calls cost 3 + function name + arguments each, tool results
 *   their content; tool definitions by the cookbook's function rule. Images by {@link imageTokens}.
 * - `openai-responses` (Responses `{ instructions?, input, tools? }`): the same rule, instructions as a system message,
 *   `function_call` / `function_call_output` items like tool calls / tool results.
 * - `anthropic-messages` (Messages `{ system?, messages, tools?, tool_choice? }`): always `estimated` — 3 per message
 *   plus block text; tool definitions as JSON plus the documented tool-use system prompt (346 tokens, 313 when the
 *   choice is forced).
 *
 * The tool-call and per-message overheads beyond the cookbook's text messages are OpenAI's undocumented framing and
 * are approximations; text itself is exact with an exact tokenizer. Pass a memoizing tokenizer
 * ({@link createMemoTokenizer}) to make recounting unchanged messages a lookup.
 *
 * @param format - which provider body `body` is
 * @param body - the request body, as JSON
 * @param tokenizer - counts the text (use the model's encoding; `estimate` for Anthropic)
 * @param options - see {@link CountRequestOptions}
 * @returns the count, split by part
 * @throws {@link InvalidRequestError} for an unknown format or a malformed or uncountable body;
 * {@link ImageSizeUnknownError} for an image whose size is unknown; the tokenizer's errors for bad text
 * @example
 * ```ts
 * const tok = await loadTokenizer('o200k_base');
 * countRequest('openai-chat', { messages: [{ role: 'user', content: 'hello world' }] }, tok).total;
 * // 3 + 1 (role) + 2 (text) + 3 (priming) = 9
 * ```
 */
export function countRequest(format: RequestFormat, body: unknown, tokenizer: Tokenizer, options: CountRequestOptions = {}): RequestCount {
  if (!FORMATS.includes(format)) throw new InvalidRequestError('format', `expected one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const b = recordAt(body, 'body');
  const walker = new RequestWalker(format === 'anthropic-messages' ? 'anthropic' : 'openai', tokenizer, options);
  const cl100k = tokenizer.encoding === 'cl100k_base';
  if (format === 'openai-chat') countOpenAIChat(walker, b, cl100k);
  else if (format === 'openai-responses') countOpenAIResponses(walker, b, cl100k);
  else countAnthropicMessages(walker, b);
  return Object.freeze({
    total: walker.messages + walker.tools + walker.images + walker.overhead,
    estimated: tokenizer.estimated || format === 'anthropic-messages',
    messages: walker.messages,
    tools: walker.tools,
    images: walker.images,
    overhead: walker.overhead,
    perMessage: Object.freeze([...walker.perMessage]),
  });
}
