import { InvalidOptionError } from './errors.js';
import type { RequestFormat } from './request-count.js';

/**
 * Tokens a request body costs beyond the text of its messages, by the accounting of {@link countRequest}. A context
 * item costs its text plus `perMessage`; a tool item (a call and its result) costs `perToolCall` more; the request
 * costs `perRequest` once.
 */
export interface MessageOverhead {
  /** The request format the figures are for. */
  readonly format: RequestFormat;
  /** Per message: the wrapper (3) plus, where the body spells it, the role (1). */
  readonly perMessage: number;
  /** Per tool call beyond its result's message: the call's wrapper (and, for Anthropic, the result block's). */
  readonly perToolCall: number;
  /** Per request: the reply priming. */
  readonly perRequest: number;
}

const TABLE: Readonly<Record<RequestFormat, MessageOverhead>> = {
  // 3 per message + the role's token; 3 per tool call; 3 for the reply priming.
  'openai-chat': { format: 'openai-chat', perMessage: 4, perToolCall: 3, perRequest: 3 },
  // A function_call item (3) and a function_call_output item (3 + `tool`), the reply priming.
  'openai-responses': { format: 'openai-responses', perMessage: 4, perToolCall: 3, perRequest: 3 },
  // 3 per message; a tool_use block (3) in the assistant turn and a tool_result block (3) in the next user turn.
  'anthropic-messages': { format: 'anthropic-messages', perMessage: 3, perToolCall: 6, perRequest: 0 },
};

/**
 * The wrapper tokens of a request format, the same figures {@link countRequest} counts, so that a budget set on
 * items can be held against the request the provider receives.
 *
 * @param format - `openai-chat`, `openai-responses` or `anthropic-messages`.
 * @returns The overhead (frozen).
 * @throws {@link InvalidOptionError} for an unknown format.
 * @example
 * ```ts
 * messageOverhead('openai-chat'); // { format: 'openai-chat', perMessage: 4, perToolCall: 3, perRequest: 3 }
 * ```
 */
export function messageOverhead(format: RequestFormat): MessageOverhead {
  const hit = Object.hasOwn(TABLE, format) ? TABLE[format] : undefined;
  if (hit === undefined) throw new InvalidOptionError('format', format, 'one of openai-chat, openai-responses, anthropic-messages');
  return hit;
}
