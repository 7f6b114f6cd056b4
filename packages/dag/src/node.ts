/** A JSON value as stored in a node: no `undefined`, functions, non-finite numbers or lone surrogates. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** The role of a node in the conversation. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * One node of the conversation DAG. Immutable once stored: no API rewrites it.
 *
 * A `tool` node is one tool invocation: `name` is the tool, `input` its arguments, `output` its result,
 * and `caller` the assistant node that issued it. Every other node hangs off the node before it through
 * `predecessor`. A node has `predecessor` or `caller`, never both; a root has neither.
 */
export interface Node {
  /** Unique within a store; safe as a git path segment. */
  readonly id: string;
  /** The session that appended the node. */
  readonly session: string;
  /** Monotonic within a session; the only ordering key (never the wall clock). */
  readonly seq: number;
  /** Milliseconds since the epoch, from the injected clock. Informational only. */
  readonly createdAt: number;
  /** Who speaks: `system`, `user`, `assistant`, or `tool` (one tool invocation). */
  readonly role: Role;
  /** Tool name for `tool` nodes; optional speaker name otherwise. */
  readonly name?: string;
  /** Tool call arguments for `tool` nodes. */
  readonly input?: Json;
  /** The permanent original text (for a `tool` node, the tool's result). */
  readonly output: string;
  /** The node this one follows in the conversation. */
  readonly predecessor?: string;
  /** The assistant node that issued this tool call. */
  readonly caller?: string;
  /** Ids of nodes whose content this node read (extra dependency edges). */
  readonly reads?: readonly string[];
  /**
   * Free-form JSON. Keys used by `@ctxgit/dag`: `attach` (`{ session, head, commit }` of an attach pointer
   * node) and `source` (what an importer kept from the transcript: ids, flags, raw arguments, ...).
   */
  readonly metadata?: { readonly [key: string]: Json };
}
