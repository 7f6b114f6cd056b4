/** Where a node sits among its siblings: the `< index/total >` of a chat UI. */
export interface SiblingPosition {
  /** 1-based position of the node in `ids`. */
  readonly index: number;
  /** Number of siblings, the node included. */
  readonly total: number;
  /** Ids of all siblings, the node included, in seq order (equal seqs by id). */
  readonly ids: readonly string[];
}
