import type { ProviderName } from './render-options.js';
import { validateAnthropic } from './validate/anthropic.js';
import { Issues, type ValidationIssue } from './validate/issues.js';
import { validateOpenAIChat } from './validate/openai-chat.js';
import { validateOpenAIResponses } from './validate/openai-responses.js';

/** Options of {@link validateRequest}. */
export interface ValidateRequestOptions {
  /** Accept a final assistant message (Anthropic: a prefill). @defaultValue false */
  readonly allowAssistantLast?: boolean;
}

/**
 * Checks a request body against the documented protocol rules of a provider, independently of how it was
 * built: allowed roles, non-empty content, tool call ids unique and each call answered in the right place
 * (OpenAI: `tool` messages / `function_call_output` after the call; Anthropic: `tool_result` blocks first in
 * the next user turn), Anthropic alternation and first user turn, declared tools, at most 4
 * `cache_control` blocks, and how the request may end. Never throws: issues are returned as data.
 *
 * @param provider - The format the body claims to be.
 * @param body - The request body (`text`: a string).
 * @param options - See {@link ValidateRequestOptions}.
 * @returns The issues found, empty when the body is valid.
 * @example
 * ```ts
 * const issues = validateRequest('anthropic', render(commit, { provider: 'anthropic' }));
 * if (issues.length > 0) throw new Error(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
 * ```
 */
export function validateRequest(provider: ProviderName, body: unknown, options: ValidateRequestOptions = {}): ValidationIssue[] {
  const issues = new Issues();
  const allowAssistantLast = options.allowAssistantLast === true;
  if (provider === 'openai-chat') validateOpenAIChat(body, allowAssistantLast, issues);
  else if (provider === 'openai-responses') validateOpenAIResponses(body, allowAssistantLast, issues);
  else if (provider === 'anthropic') validateAnthropic(body, allowAssistantLast, issues);
  else if (provider === 'text') {
    if (typeof body !== 'string' || body === '') issues.add('', 'E_BODY', 'the text view is a non-empty string');
  } else issues.add('', 'E_PROVIDER', `unknown provider ${String(provider)}`);
  return issues.list;
}
