import type { Session } from '@ctxgit/commit';
import type { RenderOptions } from '@ctxgit/render';
import { render } from '@ctxgit/render';
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { beginTurn, endTurn } from './call-report.js';
import type { CtxgitCallReport } from './call-report.js';
import { delegate } from './delegate.js';
import { UnsupportedRequestError } from './errors.js';
import { openAIChatHistory } from './openai-chat-history.js';

/** Render options the wrappers pass through (the provider is the client's). */
export type WrapRenderOptions = Omit<RenderOptions, 'provider' | 'tools' | 'model'>;

/** The OpenAI client as {@link wrapOpenAI} returns it: `chat.completions.create()` goes through the session. */
export type CtxgitOpenAI = Omit<OpenAI, 'chat'> & {
  readonly chat: Omit<OpenAI['chat'], 'completions'> & {
    readonly completions: Omit<OpenAI['chat']['completions'], 'create'> & {
      /** Sends the session's rendered commit instead of `body.messages`; the rest of `body` is sent as given. */
      create(body: ChatCompletionCreateParamsNonStreaming, options?: OpenAI.RequestOptions): Promise<ChatCompletion & { ctxgit: CtxgitCallReport }>;
    };
  };
};

/**
 * Wraps an `openai` client so that every `chat.completions.create()` goes through a ctxgit session: the messages the
 * caller passes are appended to the session (only what it does not hold yet), the session's commit is rendered
 * for OpenAI Chat and sent as `messages` (every other field of the body as given: model, tools, temperature, …),
 * the usage the API reports is recorded on the session, and the response carries a `ctxgit` report (commit id,
 * tokens, what the rules did). The reply itself enters the session with the next call's history. Streaming is
 * refused ({@link UnsupportedRequestError}); every other method is the client's own.
 *
 * @param client - an `OpenAI` client
 * @param session - the session the calls go through
 * @param opts - render options (e.g. `{ systemRole: 'developer' }`); @defaultValue `{ allowAssistantLast: true }`
 * @returns the wrapped client
 * @example
 * ```ts
 * const openai = wrapOpenAI(new OpenAI(), await repo.createSession('chat', { model: 'openai:gpt-4o' }));
 * const res = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
 * res.ctxgit.commit; // the ContextCommit that was sent
 * ```
 */
export function wrapOpenAI(client: OpenAI, session: Session, opts: WrapRenderOptions = {}): CtxgitOpenAI {
  const completions = client.chat.completions;
  const create = async (body: ChatCompletionCreateParamsNonStreaming, options?: OpenAI.RequestOptions): Promise<ChatCompletion & { ctxgit: CtxgitCallReport }> => {
    if ((body as { stream?: unknown }).stream === true) throw new UnsupportedRequestError('chat.completions.create', 'stream', 'the reply must be complete to record its usage');
    const turn = await beginTurn(session, openAIChatHistory(body.messages), { format: 'openai-chat', ...(body.tools === undefined ? {} : { tools: body.tools }) });
    const rendered = render(turn.commit, { allowAssistantLast: true, ...opts, model: body.model, provider: 'openai-chat' });
    const res = await completions.create({ ...body, messages: rendered.messages }, options);
    const prompt = res.usage?.prompt_tokens ?? 0;
    const cached = res.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    const ctxgit = await endTurn(session, turn, { inputTokens: prompt - cached, cacheReadTokens: cached, cacheWriteTokens: 0 });
    return Object.assign(res, { ctxgit });
  };
  const chat = delegate(client.chat, { completions: delegate(completions, { create }) });
  return delegate(client, { chat }) as unknown as CtxgitOpenAI;
}
