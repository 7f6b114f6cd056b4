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

/**
 * Largest `input` and largest `metadata` of a node, each as JSON in UTF-8 bytes: 1 MiB. Everything a later commit
 * counts is bounded at append (the token counter refuses texts over 16 Mi UTF-16 units), so an accepted node can never
 * make a later commit fail.
 */
export const MAX_FIELD_BYTES = 1_048_576;

/** Longest `name` of a node (a tool's name), in UTF-16 code units. */
export const MAX_NAME_LENGTH = 1024;

/** Most entries in a node's `reads`. */
export const MAX_READS = 4096;

/** Largest accepted `maxOutputBytes` option: 8 MiB (with `input` at its limit, an item's text stays far under the counter's limit). */
export const MAX_OUTPUT_BYTES_LIMIT = 8 * 1_048_576;

/** Side effects and limits shared by every operation that writes nodes. */
export interface DagOptions {
  /** Source of `createdAt`, in ms since the epoch. @defaultValue `Date.now` */
  readonly clock?: Clock;
  /** Id generator. @defaultValue {@link defaultNodeId} */
  readonly ids?: IdGenerator;
  /** Largest accepted `output`, in UTF-8 bytes, at most {@link MAX_OUTPUT_BYTES_LIMIT}. @defaultValue {@link DEFAULT_MAX_OUTPUT_BYTES} (1 MiB) */
  readonly maxOutputBytes?: number;
}

/** Metadata of a node: a JSON object. */
export type NodeMetadata = { readonly [key: string]: Json };
