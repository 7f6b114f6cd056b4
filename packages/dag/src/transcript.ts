import type { TranscriptLocation } from './errors.js';
import type { Json, Role } from './node.js';
import type { NodeMetadata } from './options.js';

/** The source format of a transcript. */
export type TranscriptFormat = 'openai-chat' | 'swe-agent' | 'claude-code';

/** One node-to-be of an imported transcript; edges refer to earlier entries by index. */
export interface TranscriptEntry {
  readonly role: Role;
  /** Tool name for `tool` entries; speaker name otherwise. */
  readonly name?: string;
  /** Tool call arguments. */
  readonly input?: Json;
  /** The original text. */
  readonly output: string;
  /** Index of the entry this one follows (absent for a root or a tool entry). */
  readonly predecessor?: number;
  /** Index of the assistant entry that issued this tool call. */
  readonly caller?: number;
  /** Milliseconds since the epoch, from the transcript's timestamp when it has one. */
  readonly createdAt?: number;
  /** Source fields kept for lossless replay (ids, flags, raw arguments, ...). */
  readonly metadata?: NodeMetadata;
}

/** A malformed line or message skipped under `malformed: 'skip'`. */
export interface MalformedItem extends TranscriptLocation {
  /** What was wrong. */
  readonly reason: string;
}

/**
 * A transcript turned into DAG entries, not yet stored: a pure description that {@link writeTranscript}
 * writes in one atomic store write. Everything not turned into an entry is counted in `skipped` (or listed in
 * `malformed`), never dropped silently.
 */
export interface Transcript {
  readonly format: TranscriptFormat;
  /** Entries in source order; entry `i` gets seq `i`. */
  readonly entries: readonly TranscriptEntry[];
  /** Index of the entry HEAD lands on (the last entry of the main conversation), `null` when empty. */
  readonly head: number | null;
  /** Items skipped on purpose, by reason (e.g. `summary`, `demo`, `block:image`, `malformed`). */
  readonly skipped: { readonly [reason: string]: number };
  /** Malformed items skipped under `malformed: 'skip'`; always empty under the default `'throw'`. */
  readonly malformed: readonly MalformedItem[];
  /** Facts about the import, by name (e.g. `toolResults`, `unansweredCalls`, `implicitParents`). */
  readonly stats: { readonly [name: string]: number };
  /** Conversation-level source fields that are not messages (e.g. tau-bench `task_id`, `reward`); not stored by {@link writeTranscript}. */
  readonly metadata: NodeMetadata;
  /** 1-based line of the conversation in a JSONL source holding one conversation per line. */
  readonly line?: number;
}

/** Options of the importers. */
export interface ImportOptions {
  /**
   * What to do with a malformed line or message: `'throw'` a `MalformedTranscriptError`, or `'skip'` it,
   * listing it in `Transcript.malformed` and counting it as `skipped.malformed`. @defaultValue `'throw'`
   */
  readonly malformed?: 'throw' | 'skip';
}
