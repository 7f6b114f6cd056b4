// The JSON documents of the viewer's HTTP API. Shared by the server (src/api) and the front-end (web/src), which
// imports these types only: nothing here runs.
import type { CommitSummary, ItemChange } from '@ctxgit/commit';
import type { Occupancy } from '@ctxgit/tokenize';

/** One row of `GET /api/sessions`. */
export interface SessionRow {
  readonly name: string;
  readonly model: string;
  /** Nodes the session appended (its DAG record's `nextSeq`). */
  readonly nodes: number;
  /** ContextCommits on the session's first-parent chain (the latest commit's `turn`). */
  readonly commits: number;
  /** Tokens fed by the latest commit. */
  readonly tokens: number;
  readonly window: number;
  /** Milliseconds since the epoch: the latest commit or node, whichever is newer; null for an empty session. */
  readonly lastActivity: number | null;
  readonly forkedFrom: { readonly session: string; readonly node: string } | null;
}

/** `GET /api/sessions`. */
export interface SessionList {
  readonly sessions: readonly SessionRow[];
  /** Sessions in the repository before the search filter. */
  readonly total: number;
}

/** The occupancy record, exactly as `Session.occupancy()` returns it. */
export type OccupancyRecord = Occupancy;

/** `GET /api/sessions/:name/occupancy`. */
export interface OccupancyView {
  readonly session: string;
  /** The latest commit, or null for a session without one. */
  readonly commit: string | null;
  readonly record: OccupancyRecord;
  /** Our count of the latest commit, split by where the tokens go. */
  readonly breakdown: {
    /** Live system items. */
    readonly system: number;
    /** Live user, assistant and summary items. */
    readonly history: number;
    /** Live tool items (calls and their results). */
    readonly tools: number;
    /** The window minus the session's history budget: kept free for the reply. */
    readonly outputReserve: number;
  };
}

/** One row of the context timeline. */
export interface TimelineRow {
  readonly id: string;
  readonly parentIds: readonly string[];
  readonly session: string;
  readonly turn: number;
  readonly headNodeId: string;
  /** First line of the commit message: what the rules did. */
  readonly subject: string;
  readonly added: number;
  readonly aged: number;
  readonly cleared: number;
  readonly folded: number;
  /** Items kept as the cacheable prefix (index of the first changed item). */
  readonly prefixItems: number;
  readonly totalTokens: number;
  readonly window: number;
  readonly createdAt: number;
}

/** `GET /api/sessions/:name/timeline`: one page, newest first. */
export interface TimelinePage {
  readonly rows: readonly TimelineRow[];
  /** Cursor of the next (older) page, or null at the session's first commit. */
  readonly next: string | null;
}

/** A node of the DAG window. */
export interface DagNode {
  readonly id: string;
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly name: string | null;
  readonly session: string;
  readonly seq: number;
  readonly createdAt: number;
  /** The start of the node's text (tool nodes: the result). */
  readonly preview: string;
  readonly chars: number;
  /** Sibling position `< index/total >` and the sibling ids in order (tool nodes: 1/1). */
  readonly siblings: { readonly index: number; readonly total: number; readonly ids: readonly string[] };
  /** The tool calls the node issued (assistant nodes). */
  readonly calls: readonly DagNode[];
  /** For a tool node: its arguments, as JSON text. */
  readonly input: string | null;
  /** Set on an attach pointer: the attached session and commit. */
  readonly attach: { readonly session: string; readonly commit: string } | null;
  /** Set on a merge pointer. */
  readonly merge: boolean;
  /** Sessions forked at this node. */
  readonly forks: readonly string[];
  /** The session's ContextCommit whose head is this node, when the window knows it. */
  readonly commit: string | null;
}

/** `GET /api/sessions/:name/dag`: the branch ending at `tip`, the newest `limit` nodes of it. */
export interface DagWindow {
  readonly session: string;
  /** The session's head node. */
  readonly head: string | null;
  readonly tip: string | null;
  /** The branch, oldest first (without tool nodes: they are under their caller's `calls`). */
  readonly nodes: readonly DagNode[];
  /** Cursor to continue towards the root: the predecessor of the first node, or null at the root. */
  readonly older: string | null;
  /** The session this one was forked from, when the window reaches the fork point. */
  readonly forkedFrom: { readonly session: string; readonly node: string } | null;
}

/** One item of an opened commit. */
export interface ItemView {
  readonly index: number;
  readonly key: string;
  readonly sourceNodeId: string;
  readonly role: string;
  readonly state: string;
  readonly locked: boolean;
  readonly tokens: number;
  readonly reason: string;
  readonly attachedFrom: string | null;
  readonly pinned: boolean;
  readonly anchor: boolean;
  readonly caller: string | null;
  /** For a summary: how many items it folded. */
  readonly folded: number;
  /** The item's text as the model sees it (cut at {@link ItemView.chars} > text length). */
  readonly text: string;
  readonly chars: number;
}

/** `GET /api/commits/:id`. */
export interface CommitView {
  readonly id: string;
  readonly session: string;
  readonly parentIds: readonly string[];
  readonly headNodeId: string;
  readonly rulesVersion: string;
  readonly model: string;
  readonly window: number;
  readonly totalTokens: number;
  readonly createdAt: number;
  readonly summary: CommitSummary;
  /** Items per state, summarized ones included. */
  readonly states: { readonly [state: string]: number };
  /** The live items (what the model sees), in order; summarized items are reached by expanding their summary. */
  readonly items: readonly ItemView[];
}

/** `GET /api/commits/:id/render?provider=P`. */
export interface RenderView {
  readonly provider: string;
  /** The request body, pretty-printed JSON (the text provider: the text itself). */
  readonly body: string;
  readonly bytes: number;
}

/** `GET /api/commits/:id/diff`. */
export interface DiffView {
  readonly a: string | null;
  readonly b: string;
  readonly tokens: readonly [number, number];
  readonly changes: readonly ItemChange[];
  /** The first item that differs from the parent: where the cached prefix breaks. */
  readonly firstChangedIndex: number;
  readonly firstChangedKey: string | null;
  /** Per provider: leading messages and bytes of the parent's render that stay a byte-identical prefix. */
  readonly prefix: readonly { readonly provider: string; readonly messages: number; readonly bytes: number; readonly totalBytes: readonly [number, number] }[];
}

/** `GET /api/sessions/:name/expand?commit=C&key=K`. */
export interface ExpandView {
  readonly key: string;
  readonly commit: string;
  readonly originals: readonly {
    readonly key: string;
    readonly oid: string;
    readonly role: string;
    readonly name: string | null;
    readonly text: string;
    /** The git blob id of the original's text, recomputed by the viewer; equal to `oid` when verified. */
    readonly rehash: string;
    readonly verified: boolean;
  }[];
}

/** One call of the charts. */
export interface ChartPoint {
  readonly id: string;
  readonly turn: number;
  /** Tokens ctxgit fed. */
  readonly fed: number;
  /** Tokens the whole branch up to the call's head would cost, every node in full. */
  readonly full: number;
  /** USD at the model's input price, or null when the price is unknown. */
  readonly costFed: number | null;
  readonly costFull: number | null;
}

/** `GET /api/sessions/:name/charts`. */
export interface ChartsView {
  readonly session: string;
  readonly model: string;
  /** USD per million input tokens used, or null. */
  readonly usdPerMTok: number | null;
  /** Oldest first. */
  readonly points: readonly ChartPoint[];
  /** True when older calls exist beyond the charted ones. */
  readonly truncated: boolean;
}

/** The body of every error response. */
export interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}
