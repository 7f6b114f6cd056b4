import type { Clock, IdGenerator } from '@ctxgit/dag';
import type { BandOptions, Rule, RulesCache } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';
import type { FoldCache } from './fold-cache.js';
import type { CommitRequest } from './session-request.js';
import type { SessionSummarizer } from './summarizer/session-summarizer.js';
import type { ToolSettings } from '../store/tools/next-commit-tools.js';

/** Everything a session's operations need, resolved once when it is created or opened. */
export interface SessionSettings extends ToolSettings {
  readonly name: string;
  /** `"provider:model"`. */
  readonly model: string;
  /** Context window, tokens. */
  readonly window: number;
  /** Tokens the history may occupy. */
  readonly historyBudget: number;
  /** Tokens kept free for the reply (the request frame's). */
  readonly outputReserve: number;
  /** The request the commits are rendered into; without it items are counted by their text against `historyBudget`. */
  readonly request?: CommitRequest;
  /** The session's tokenizer, loaded on first call by the repository's loader and kept there (call it only when counting). */
  readonly loadTokenizer: () => Promise<Tokenizer>;
  readonly rules: readonly Rule[];
  readonly rulesVersion: string;
  /** What the rules keep between this session's runs (each run costs what changed since the previous one). */
  readonly rulesCache: RulesCache;
  /** What the live summaries of the session's latest commit folded, for the next merge of summaries. */
  readonly foldCache: FoldCache;
  readonly band?: BandOptions;
  readonly clock: Clock;
  /** The time `clock` gave last: dates the session's DAG commits. */
  readonly lastTime: Clock;
  readonly ids?: IdGenerator;
  readonly summarizer?: SessionSummarizer;
  /** Share of the history budget pinned items may hold. */
  readonly maxPinnedShare?: number;
}
