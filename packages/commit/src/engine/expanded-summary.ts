import type { Node } from '@ctxgit/dag';

/** One original of a summary, as stored in the DAG. */
export interface ExpandedOriginal {
  /** Key of the folded item in the commit. */
  readonly key: string;
  /** Git blob oid of the node's canonical JSON, recorded when the item entered the context; re-hashed on read. */
  readonly oid: string;
  /** The node as stored. */
  readonly node: Node;
  /** The exact text of the node's blob (canonical JSON), whose git blob id is `oid`. */
  readonly text: string;
}

/** What {@link Session.expand} returns. */
export interface ExpandedSummary {
  /** The summary item's key. */
  readonly key: string;
  /** The commit the summary was read from. */
  readonly commit: string;
  /** The folded originals, in list order. */
  readonly originals: readonly ExpandedOriginal[];
}
