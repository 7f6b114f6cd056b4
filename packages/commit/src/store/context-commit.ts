import type { ContextItem } from '@ctxgit/rules';
import type { CommitTools } from './tools/commit-tools.js';

/** What the rules did on one turn; the commit message is written from it. */
export interface CommitSummary {
  readonly added: number;
  readonly aged: number;
  readonly cleared: number;
  readonly folded: number;
  /** Index of the first item that differs from the parent commit: the cacheable prefix. */
  readonly firstChangedIndex: number;
}

/** An immutable snapshot of what the model is fed under one head, stored as a git commit. */
export interface ContextCommit {
  /** The git commit oid. */
  readonly id: string;
  readonly session: string;
  /** Git parents; more than one only for a merge. */
  readonly parentIds: readonly string[];
  readonly headNodeId: string;
  readonly rulesVersion: string;
  /** `"provider:model"`, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly model: string;
  /** The context window in tokens. */
  readonly window: number;
  readonly totalTokens: number;
  /** The live list: what the model sees (`full`, `aged`, `cleared`, `summary` items), in order. */
  readonly items: readonly ContextItem[];
  /** Items folded under the live summaries, at every depth (read them with `Session.expand`). @defaultValue 0 */
  readonly foldedItems?: number;
  readonly summary: CommitSummary;
  /** Milliseconds since the epoch, from the injected clock. */
  readonly createdAt: number;
  /** The tools this commit advertises, when its session has a tool catalogue (see `Session.setTools`); `render` emits them. */
  readonly tools?: CommitTools;
}
