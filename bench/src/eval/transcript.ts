import type { Node } from '@ctxgit/dag';

/** One conversation of the corpus, linearized as its branch view. */
export interface Transcript {
  /** `<corpus>/<file>[#<n>]`. */
  readonly id: string;
  /** The corpus folder: `tau-bench-airline`, `swe-agent`, `claude-code`. */
  readonly corpus: string;
  /** The branch view of the imported DAG: ancestors in `seq` order with tool calls under their assistant. */
  readonly nodes: readonly Node[];
  /** True when the source carries real timestamps (then the cache lifetime is applied). */
  readonly timestamps: boolean;
  /**
   * For a session chained from several conversations: node id → the conversation it was written in. A step can
   * only have reused what its own conversation showed it, so dependency recall reads that conversation alone.
   */
  readonly conversationOf?: ReadonlyMap<string, string>;
}
