import type { ContextItem } from '@ctxgit/rules';

/**
 * The canonical JSON of a request's visible items: what is measured when the renderer refuses a request.
 * @example
 * ```ts
 * canonicalRequest([userItem]); // '[{"role":"user","blocks":[{"type":"text","text":"hi"}]}]'
 * ```
 */
export function canonicalRequest(items: readonly ContextItem[]): string {
  return JSON.stringify(items.filter((i) => i.state !== 'summarized').map((i) => ({ role: i.role, blocks: i.blocks })));
}
