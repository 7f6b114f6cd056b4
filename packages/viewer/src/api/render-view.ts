import type { ContextCommit } from '@ctxgit/commit';
import type { ProviderName, RenderOutput } from '@ctxgit/render';
import { render } from '@ctxgit/render';
import type { RenderView } from '../api-types.js';

/** The providers the viewer renders for, in tab order. */
export const PROVIDERS: readonly ProviderName[] = ['anthropic', 'openai-chat', 'openai-responses', 'text'];

/**
 * The request body of a provider for a commit (a commit ending with the assistant is rendered as a prefill). The
 * viewer shows every provider's body side by side, so each names the commit's own model, whatever its provider.
 */
export function renderFor(commit: ContextCommit, provider: ProviderName): RenderOutput {
  return render(commit, { provider, allowAssistantLast: true, model: commit.model.slice(commit.model.indexOf(':') + 1) });
}

/** The rendered request, as text. */
export function renderView(commit: ContextCommit, provider: ProviderName): RenderView {
  const out = renderFor(commit, provider);
  const body = typeof out === 'string' ? out : JSON.stringify(out, null, 2);
  return { provider, body, bytes: new TextEncoder().encode(body).length };
}
