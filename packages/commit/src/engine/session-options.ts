import type { Clock, IdGenerator } from '@ctxgit/dag';
import type { BandOptions, CatalogueTool, Rule, ToolViewOptions } from '@ctxgit/rules';
import type { ModelTable } from '@ctxgit/tokenize';
import type { CommitRequest } from './session-request.js';
import type { SessionSummarizer } from './summarizer/session-summarizer.js';

/** How a session's operations behave; not stored, so give them again to {@link Repo.openSession}. */
export interface SessionOptions {
  /** The rule pipeline. @defaultValue `defaultRules()` of `@ctxgit/rules` with the model's prompt-cache prices (`cacheRead`, `cacheWrite`: the model table's `cache`) */
  readonly rules?: readonly Rule[];
  /** The occupancy band of the fold rule. @defaultValue the pipeline's defaults (fold at 0.9, down to 0.5) */
  readonly band?: BandOptions;
  /** Milliseconds since the epoch for node `createdAt`, commit times and the rules' `now`. @defaultValue the repository's clock */
  readonly clock?: Clock;
  /** Node id generator. @defaultValue `defaultNodeId` of `@ctxgit/dag` (sha256 of session and seq) */
  readonly ids?: IdGenerator;
  /** Extra entries for the model table. @defaultValue none */
  readonly models?: ModelTable;
  /** Writes the text of new summaries; the deterministic brief is the fallback. @defaultValue the repository's (see {@link OpenRepoOptions}), else none: every summary is the deterministic brief */
  readonly summarizer?: SessionSummarizer;
  /** Share of the history budget that pinned items may hold together ({@link Session.pin} refuses more). @defaultValue 0.25 */
  readonly maxPinnedShare?: number;
  /**
   * The request every commit of this session object is rendered into (a {@link Session.commit} call may name another):
   * with it the budget is the rendered request — system, tools, wrappers, output reserve — not the items' text.
   * @defaultValue none: items are counted by their text against the history budget
   */
  readonly request?: CommitRequest;
  /** How the tool catalogue is viewed: branches per level, open groups, the search offer. @defaultValue see `ToolViewOptions` (7, 4, 4) */
  readonly toolView?: ToolViewOptions;
}

/** Options of {@link Repo.createSession}; `model`, `window`, `budget` and `outputReserve` are stored with the session. */
export interface CreateSessionOptions extends SessionOptions {
  /** `"provider:model"`, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly model: string;
  /** Context window in tokens, overriding the model table's (required for a model the table lacks, unless `budget` is given). @defaultValue the table's */
  readonly window?: number;
  /** Tokens the history may occupy, overriding the budget derived from the window. @defaultValue window − outputReserve */
  readonly budget?: number;
  /** Tokens kept free for the reply when deriving the budget. @defaultValue min(model's max output, window / 4) */
  readonly outputReserve?: number;
  /** The session's tool catalogue, stored with it (see `Session.setTools`). @defaultValue none: commits advertise no tools */
  readonly tools?: readonly CatalogueTool[];
}
