import type { Role } from '@ctxgit/dag';

/** How much of an item the model sees; only ever tightens: full → aged → cleared → summarized. */
export type ItemState = 'full' | 'aged' | 'cleared' | 'summarized' | 'summary';

/** Structured content of an item. */
export type Block =
  | { readonly type: 'text'; readonly text: string }
  /** A tool call; `arguments` is JSON text (possibly cut when aged). */
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly arguments: string }
  | {
      readonly type: 'tool_result';
      readonly callId: string;
      readonly name: string;
      readonly output: string;
      readonly isError?: boolean;
    };

/** One entry of a ContextCommit: what the model is fed for one DAG node, or a summary of several. */
export interface ContextItem {
  /** Stable across commits of a session: the node id, or `sm_…` for a summary. */
  readonly key: string;
  /** The DAG node the item comes from; a virtual `sm_…` id for summaries. */
  readonly sourceNodeId: string;
  readonly role: Role;
  readonly state: ItemState;
  /** Locked items are never changed by a rule. */
  readonly locked: boolean;
  /** The current content. A `tool` item holds `[tool_call, tool_result]`. */
  readonly blocks: readonly Block[];
  readonly tokens: number;
  /** Why the item is in its state: `new`, `tail_window`, `idle_60min`, `attached_from:X`, … */
  readonly reason: string;
  /** Key of the summary item that folded this one (itself `summarized` when a later fold absorbed it). */
  readonly mergedInto?: string;
  readonly isAnchor?: boolean;
  /** Set on items expanded from an attach: the attach pointer node id. */
  readonly attachedFrom?: string;
  readonly pinned?: boolean;
  /** Milliseconds since the epoch when the item was last added or used (idle clearing). */
  readonly touchedAt: number;
  /** For a `tool` item: key of the assistant item that issued the call (the node's `caller`). */
  readonly caller?: string;
  /** For a `tool` item: length in UTF-16 code units of the original tool output, before any cut. */
  readonly outputChars?: number;
  /**
   * For a summary (`summary`, or `summarized` once a later fold absorbed it): keys of the items it folded, in list
   * order, earlier summaries among them; {@link foldedOriginals} lists the originals behind them.
   */
  readonly folded?: readonly string[];
}
