import type { RequestFrame } from '@ctxgit/rules';
import type { RequestFormat, Tokenizer } from '@ctxgit/tokenize';
import { countRequest, messageOverhead } from '@ctxgit/tokenize';
import { InvalidOptionError } from '../errors.js';

/**
 * The request a session's commits are rendered into. With it the rules hold the window against what the provider
 * receives: each item counted with its message wrappers in `format`, the session's output reserve kept free, and the
 * tool definitions and other fixed tokens subtracted from the history's share; a turn whose latest round cannot fit
 * is refused (`RulesOverBudgetError` of `@ctxgit/rules`, with the figures) instead of going over the window.
 */
export interface CommitRequest {
  /** The provider body the commit is rendered into (`render`'s `provider`): `openai-chat`, `openai-responses` or `anthropic-messages`. */
  readonly format: RequestFormat;
  /** Tool definitions the request sends, in the provider's schema (as the body's `tools`), counted as `countRequest` counts them. @defaultValue none */
  readonly tools?: readonly unknown[];
  /** Other tokens of the request besides the items and `tools` (a system prompt sent outside the history). @defaultValue 0 */
  readonly fixedTokens?: number;
}

const FORMATS: readonly RequestFormat[] = ['openai-chat', 'openai-responses', 'anthropic-messages'];

/** A plain, checked copy of a {@link CommitRequest}; `where` names the option in the error. */
export function checkCommitRequest(request: unknown, where: string): CommitRequest {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) throw new InvalidOptionError(where, request, '{ format, tools?, fixedTokens? }');
  const { format, tools, fixedTokens } = request as Record<string, unknown>;
  if (!FORMATS.includes(format as RequestFormat)) throw new InvalidOptionError(`${where}.format`, format, FORMATS.join(', '));
  if (tools !== undefined && !Array.isArray(tools)) throw new InvalidOptionError(`${where}.tools`, tools, "an array of tool definitions in the provider's schema");
  if (fixedTokens !== undefined && (typeof fixedTokens !== 'number' || !Number.isSafeInteger(fixedTokens) || fixedTokens < 0)) {
    throw new InvalidOptionError(`${where}.fixedTokens`, fixedTokens, 'a non-negative integer number of tokens');
  }
  return { format: format as RequestFormat, ...(tools === undefined ? {} : { tools: tools as unknown[] }), ...(fixedTokens === undefined ? {} : { fixedTokens }) };
}

/** The rules' request frame of a session's commit: its window and output reserve, the wrappers of the format, the fixed tokens. */
export function requestFrame(request: CommitRequest, window: number, outputReserve: number, tokenizer: Tokenizer): RequestFrame {
  const body = (tools: readonly unknown[] | undefined): unknown =>
    request.format === 'openai-responses' ? { input: [], ...(tools === undefined ? {} : { tools }) } : { messages: [], ...(tools === undefined ? {} : { tools }) };
  const toolTokens =
    request.tools === undefined || request.tools.length === 0 ? 0 : countRequest(request.format, body(request.tools), tokenizer).total - countRequest(request.format, body(undefined), tokenizer).total;
  return { window, outputReserve, fixedTokens: toolTokens + (request.fixedTokens ?? 0), overhead: messageOverhead(request.format) };
}
