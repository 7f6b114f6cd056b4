import { CtxgitError } from '@ctxgit/errors';

/**
 * Base class (a {@link CtxgitError}) of every error thrown by `@ctxgit/clients`; `code` is stable, `data` holds the offending values.
 *
 * @example
 * ```ts
 * try { await openai.chat.completions.create({ model: 'gpt-4o', messages, stream: true }); }
 * catch (e) { if (e instanceof ClientsError) console.error(e.code, e.data); }
 * ```
 */
export class ClientsError extends CtxgitError {
  constructor(code: string, message: string, data: { readonly [key: string]: unknown }) {
    super(code, message, data);
  }
}

/** A request the wrapper cannot route through the session, e.g. a streaming one (`E_CLIENTS_UNSUPPORTED`). */
export class UnsupportedRequestError extends ClientsError {
  constructor(api: string, field: string, reason: string) {
    super('E_CLIENTS_UNSUPPORTED', `${api}: ${field} is not supported by the ctxgit wrapper (${reason}); call the unwrapped client for it`, { api, field, reason });
  }
}
