import { CtxgitError } from '@ctxgit/errors';

/**
 * Base class (a {@link CtxgitError}) of every error thrown by `@ctxgit/render`. `code` is stable; `data` says what was found.
 */
export class RenderError extends CtxgitError<Readonly<Record<string, unknown>>> {
  constructor(code: string, message: string, data: Readonly<Record<string, unknown>>) {
    super(code, message, data);
  }
}

/** The commit renders to no message at all (`E_RENDER_EMPTY`): no items, or only skipped/empty ones, or only system items. */
export class EmptyRenderError extends RenderError {
  constructor(data: { readonly provider: string; readonly items: number; readonly rendered: number }) {
    super(
      'E_RENDER_EMPTY',
      `Nothing to send to ${data.provider}: the commit has ${data.items} item(s) and ${data.rendered} conversation message(s) after skipping summarized, empty and system items. Render a commit whose head is a user or tool turn.`,
      data,
    );
  }
}

/**
 * The last rendered message cannot end a request for this provider (`E_RENDER_INVALID_ENDING`), e.g. a
 * trailing assistant message. Pass `allowAssistantLast: true` to send it anyway (Anthropic: as a prefill).
 */
export class InvalidEndingError extends RenderError {
  constructor(data: { readonly provider: string; readonly lastRole: 'assistant'; readonly lastKey: string }) {
    super(
      'E_RENDER_INVALID_ENDING',
      `The ${data.provider} request cannot end with an ${data.lastRole} message (item ${JSON.stringify(data.lastKey)}): the model is asked for its next turn, so the last item must be a user or tool turn. Render the commit generated for the next model call, or pass allowAssistantLast: true.`,
      data,
    );
  }
}

/** The `provider` option names no known provider (`E_RENDER_UNKNOWN_PROVIDER`). */
export class UnknownProviderError extends RenderError {
  constructor(data: { readonly provider: string; readonly known: readonly string[] }) {
    super(
      'E_RENDER_UNKNOWN_PROVIDER',
      `Unknown render provider ${JSON.stringify(data.provider)}; use one of ${data.known.join(', ')}.`,
      data,
    );
  }
}

/**
 * The commit's model belongs to another provider than the request format (`E_RENDER_MODEL_MISMATCH`), e.g. an
 * `openai:gpt-4o` session rendered for `anthropic`, and no `model` option names the model to send.
 */
export class ModelMismatchError extends RenderError {
  constructor(data: { readonly provider: string; readonly model: string; readonly expected: string }) {
    super(
      'E_RENDER_MODEL_MISMATCH',
      `The commit's model ${data.model} is not a ${data.expected} model, so a ${data.provider} request would name it; pass the model to send (render option model, CLI --model), e.g. one of the ${data.expected} models.`,
      data,
    );
  }
}

/** An option has a wrong type or value (`E_RENDER_INVALID_OPTION`). */
export class InvalidRenderOptionError extends RenderError {
  constructor(data: { readonly option: string; readonly value: string; readonly expected: string }) {
    super('E_RENDER_INVALID_OPTION', `Render option ${data.option} is ${data.value}; expected ${data.expected}.`, data);
  }
}

/** The commit is malformed (`E_RENDER_INVALID_COMMIT`): not an object, items not an array, an unknown role or state. */
export class InvalidCommitError extends RenderError {
  constructor(data: { readonly index: number; readonly field: string; readonly value: string }) {
    super(
      'E_RENDER_INVALID_COMMIT',
      `Commit item ${data.index} has an invalid ${data.field} (${data.value}); render takes a ContextCommit as produced by @ctxgit/commit.`,
      data,
    );
  }
}
