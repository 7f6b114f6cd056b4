import type { CommitSummary } from './context-commit.js';

/** Version of the commit tree layout, stored in `meta.json`. */
export const LAYOUT_FORMAT = 3;

/** Name of the metadata blob at the root of a ContextCommit's tree. */
export const META_FILE = 'meta.json';

/** Contents of `meta.json`: everything of a ContextCommit except its items, id and parents. */
export interface CommitMeta {
  readonly format: number;
  readonly session: string;
  /** 1 for a session's first commit, parent's turn + 1 after (the first parent's for a merge). */
  readonly turn: number;
  readonly headNodeId: string;
  readonly rulesVersion: string;
  readonly model: string;
  readonly window: number;
  readonly historyBudget: number;
  readonly totalTokens: number;
  readonly historyTokens: number;
  /** Live items: the blobs under `items/` (what the model sees). */
  readonly itemCount: number;
  /** Items folded under the live summaries, at every depth (`summarized`). */
  readonly foldedItems: number;
  readonly createdAt: number;
  readonly summary: CommitSummary;
}

/** Parses `meta.json`, or returns a reason why it is not one. */
export function parseCommitMeta(text: string): CommitMeta | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'meta.json is not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'meta.json is not an object';
  const m = value as Record<string, unknown>;
  if (m['format'] !== LAYOUT_FORMAT) return `unsupported layout format ${String(m['format'])}`;
  for (const k of ['session', 'headNodeId', 'rulesVersion', 'model']) if (typeof m[k] !== 'string') return `meta.json lacks ${k}`;
  for (const k of ['turn', 'window', 'historyBudget', 'totalTokens', 'historyTokens', 'itemCount', 'foldedItems', 'createdAt']) if (typeof m[k] !== 'number') return `meta.json lacks ${k}`;
  if (typeof m['summary'] !== 'object' || m['summary'] === null) return 'meta.json lacks summary';
  return value as CommitMeta;
}
