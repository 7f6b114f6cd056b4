import type { AdvertisedTool, ContextItem } from '@ctxgit/rules';

/**
 * What {@link render} reads of a commit: its model, its items and the tools it advertises. A `ContextCommit` of
 * `@ctxgit/commit` is one; render depends on nothing else.
 */
export interface RenderInput {
  /** `"provider:model"` (or a bare model name); the request names the model without the provider prefix. */
  readonly model: string;
  readonly items: readonly ContextItem[];
  /** The tools the commit advertises, emitted in this order before those of the options it does not name. */
  readonly tools?: { readonly advertised: readonly AdvertisedTool[] };
}
