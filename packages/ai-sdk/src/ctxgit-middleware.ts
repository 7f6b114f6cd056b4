import type { LanguageModelV3CallOptions, LanguageModelV3Middleware, LanguageModelV3Usage, SharedV3ProviderMetadata } from '@ai-sdk/provider';
import type { Session } from '@ctxgit/commit';
import type { RenderOptions } from '@ctxgit/render';
import { render } from '@ctxgit/render';
import { modelMessagesToHistory } from './model-messages-to-history.js';
import { renderedPrompt } from './rendered-prompt.js';

/** Options of {@link ctxgitMiddleware}. */
export interface CtxgitMiddlewareOptions {
  /** The session every call of the wrapped model goes through. */
  readonly session: Session;
  /** Render options (the prompt is rendered as for OpenAI Chat, then handed to the model's provider). @defaultValue `{ allowAssistantLast: true }` */
  readonly render?: Omit<RenderOptions, 'provider' | 'tools'>;
}

/** What ctxgit did for one call, in the result's `providerMetadata.ctxgit`. */
export interface CtxgitCallMetadata {
  readonly [key: string]: string | number;
  readonly session: string;
  /** The ContextCommit whose render was sent. */
  readonly commit: string;
  readonly matched: number;
  readonly appended: number;
  /** Tokens of the commit, as ctxgit counts them. */
  readonly totalTokens: number;
}

/** Where the middleware passes the commit from `transformParams` to `wrapGenerate`/`wrapStream`. */
const KEY = 'ctxgit';

function reportOf(params: LanguageModelV3CallOptions): CtxgitCallMetadata | undefined {
  const meta = params.providerOptions?.[KEY];
  return meta === undefined ? undefined : (meta as unknown as CtxgitCallMetadata);
}

function withReport(meta: SharedV3ProviderMetadata | undefined, report: CtxgitCallMetadata | undefined): SharedV3ProviderMetadata | undefined {
  return report === undefined ? meta : { ...meta, [KEY]: { ...report } };
}

async function record(session: Session, report: CtxgitCallMetadata | undefined, usage: LanguageModelV3Usage): Promise<void> {
  if (report === undefined || usage.inputTokens.total === undefined) return;
  const cacheRead = usage.inputTokens.cacheRead ?? 0;
  const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
  await session.recordUsage({ head: report.commit, inputTokens: usage.inputTokens.noCache ?? usage.inputTokens.total - cacheRead - cacheWrite, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite });
}

/**
 * A language-model middleware (for the AI SDK's `wrapLanguageModel`) that feeds every call through a ctxgit session:
 * the prompt's messages the session does not hold yet are appended, the session's commit is made and its render is
 * sent as the prompt (so ctxgit's rules decide what the model sees), the usage the model reports is recorded on the
 * session, and the result's `providerMetadata.ctxgit` says what ctxgit did (see {@link CtxgitCallMetadata}).
 * Works for `generateText` and `streamText`, tool loops included.
 *
 * @param opts - the session, and render options; see {@link CtxgitMiddlewareOptions}
 * @returns the middleware
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: ctxgitMiddleware({ session }) });
 * const { text, providerMetadata } = await generateText({ model, messages });
 * providerMetadata?.ctxgit?.commit; // the ContextCommit that was sent
 * ```
 */
export function ctxgitMiddleware(opts: CtxgitMiddlewareOptions): LanguageModelV3Middleware {
  const { session } = opts;
  return {
    specificationVersion: 'v3',
    async transformParams({ params, model }) {
      // the window holds the request as rendered (OpenAI Chat wrappers), with the call's tools as function definitions
      const tools = (params.tools ?? []).map((t) => (t.type === 'function' ? { type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } } : t));
      // the new messages and the commit to send land in one write
      const request = { format: 'openai-chat' as const, ...(tools.length === 0 ? {} : { tools }) };
      const { matched, appended, commit } = await session.appendNew(modelMessagesToHistory(params.prompt), { commit: { request } });
      const body = render(commit, { allowAssistantLast: true, model: model.modelId, ...opts.render, provider: 'openai-chat' });
      const report: CtxgitCallMetadata = { session: session.name, commit: commit.id, matched, appended: appended.length, totalTokens: commit.totalTokens };
      return { ...params, prompt: renderedPrompt(commit, body), providerOptions: { ...params.providerOptions, [KEY]: { ...report } } };
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const report = reportOf(params);
      await record(session, report, result.usage);
      const providerMetadata = withReport(result.providerMetadata, report);
      return providerMetadata === undefined ? result : { ...result, providerMetadata };
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      const report = reportOf(params);
      const stream = result.stream.pipeThrough(
        new TransformStream({
          async transform(part, controller) {
            if (part.type !== 'finish') return controller.enqueue(part);
            await record(session, report, part.usage);
            const providerMetadata = withReport(part.providerMetadata, report);
            controller.enqueue(providerMetadata === undefined ? part : { ...part, providerMetadata });
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
