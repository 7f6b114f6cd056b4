import type Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { Session } from '@ctxgit/commit';
import { render } from '@ctxgit/render';
import { anthropicHistory } from './anthropic-history.js';
import { beginTurn, endTurn } from './call-report.js';
import type { CtxgitCallReport } from './call-report.js';
import { delegate } from './delegate.js';
import { UnsupportedRequestError } from './errors.js';
import type { WrapRenderOptions } from './wrap-openai.js';

/** The Anthropic client as {@link wrapAnthropic} returns it: `messages.create()` goes through the session. */
export type CtxgitAnthropic = Omit<Anthropic, 'messages'> & {
  readonly messages: Omit<Anthropic['messages'], 'create'> & {
    /** Sends the session's rendered commit instead of `body.system` and `body.messages`; the rest of `body` as given. */
    create(body: MessageCreateParamsNonStreaming, options?: Anthropic.RequestOptions): Promise<Message & { ctxgit: CtxgitCallReport }>;
  };
};

/**
 * Wraps an `@anthropic-ai/sdk` client so that every `messages.create()` goes through a ctxgit session: the system
 * text and messages the caller passes are appended to the session (only what it does not hold yet), the session's
 * commit is rendered for Anthropic Messages (with its cache breakpoints) and sent as `system` and `messages` (every
 * other field as given; `tools` as given, or the ones render declares for the history), the usage the API reports
 * is recorded on the session, and the response carries a `ctxgit` report. Streaming is refused.
 *
 * @param client - an `Anthropic` client
 * @param session - the session the calls go through
 * @param opts - render options (e.g. `{ cache: false }`); @defaultValue `{ allowAssistantLast: true }`
 * @returns the wrapped client
 * @example
 * ```ts
 * const anthropic = wrapAnthropic(new Anthropic(), session);
 * const res = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] });
 * res.ctxgit.totalTokens;
 * ```
 */
export function wrapAnthropic(client: Anthropic, session: Session, opts: WrapRenderOptions = {}): CtxgitAnthropic {
  const messages = client.messages;
  const create = async (body: MessageCreateParamsNonStreaming, options?: Anthropic.RequestOptions): Promise<Message & { ctxgit: CtxgitCallReport }> => {
    if ((body as { stream?: unknown }).stream === true) throw new UnsupportedRequestError('messages.create', 'stream', 'the reply must be complete to record its usage');
    const turn = await beginTurn(session, anthropicHistory(body), { format: 'anthropic-messages', ...(body.tools === undefined ? {} : { tools: body.tools }) });
    const rendered = render(turn.commit, { allowAssistantLast: true, ...opts, model: body.model, provider: 'anthropic' });
    const { system: _system, ...rest } = body;
    const tools = body.tools ?? rendered.tools;
    const sent: MessageCreateParamsNonStreaming = { ...rest, ...(rendered.system === undefined ? {} : { system: rendered.system }), messages: rendered.messages, ...(tools === undefined ? {} : { tools }) };
    const res = await messages.create(sent, options);
    const ctxgit = await endTurn(session, turn, {
      inputTokens: res.usage.input_tokens,
      cacheReadTokens: res.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: res.usage.cache_creation_input_tokens ?? 0,
    });
    return Object.assign(res, { ctxgit });
  };
  return delegate(client, { messages: delegate(messages, { create }) }) as unknown as CtxgitAnthropic;
}
