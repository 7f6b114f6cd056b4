import type { Json, Role } from './node.js';
import type { NodeMetadata } from './options.js';

/**
 * The content of a node to append; the DAG adds `id`, `session`, `seq`, `createdAt` and the `predecessor`
 * (the session's HEAD). A `tool` node names its assistant in `caller` (and never has a predecessor); every other
 * role must not set `caller`.
 */
export interface NodeInput {
  readonly role: Role;
  /** Tool name; required (non-empty) for `tool` nodes, optional speaker name otherwise. */
  readonly name?: string;
  /** Tool call arguments (any JSON). */
  readonly input?: Json;
  /** The permanent original text; for a `tool` node, the tool's result. */
  readonly output: string;
  /** For `tool` nodes: the assistant node that issued the call. */
  readonly caller?: string;
  /** Ids of stored nodes whose content this node read. */
  readonly reads?: readonly string[];
  /** Free-form JSON metadata. */
  readonly metadata?: NodeMetadata;
}
