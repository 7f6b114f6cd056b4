import type { Json } from './node.js';

/** Returns the current time in milliseconds since the epoch; stamped as `createdAt` (informational only). */
export type Clock = () => number;

/**
 * Makes the id of the node a session appends with a given seq. Must be deterministic and return an id that
 * passes `validateNodeId`; ids are checked before anything is written. Default: {@link defaultNodeId}.
 */
export type IdGenerator = (session: string, seq: number) => string;

/** Default limit on a node's `output`: 1 MiB (1,048,576 bytes) of UTF-8. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;

/** Side effects and limits shared by every operation that writes nodes. */
export interface DagOptions {
  /** Source of `createdAt`, in ms since the epoch. @defaultValue `Date.now` */
  readonly clock?: Clock;
  /** Id generator. @defaultValue {@link defaultNodeId} */
  readonly ids?: IdGenerator;
  /** Largest accepted `output`, in UTF-8 bytes. @defaultValue {@link DEFAULT_MAX_OUTPUT_BYTES} (1 MiB) */
  readonly maxOutputBytes?: number;
}

/** Metadata of a node: a JSON object. */
export type NodeMetadata = { readonly [key: string]: Json };
