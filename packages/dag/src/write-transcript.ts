import { InvalidArgumentError, SessionExistsError } from './errors.js';
import { entryInput } from './entry-input.js';
import { makeNode } from './internal/make-node.js';
import { readClock } from './internal/read-clock.js';
import { resolveOptions } from './internal/resolve-options.js';
import { validateOrConflict } from './internal/validate-or-conflict.js';
import type { Node } from './node.js';
import type { NodeStore, SessionRecord } from './node-store.js';
import type { DagOptions } from './options.js';
import type { Transcript } from './transcript.js';
import { validateSessionName } from './validate-session-name.js';

const ENTRY_KEYS: ReadonlySet<string> = new Set(['role', 'name', 'input', 'output', 'predecessor', 'caller', 'createdAt', 'metadata']);

/** What {@link writeTranscript} stored. */
export interface WrittenTranscript {
  /** The new session's record: HEAD at the transcript's head entry, `nextSeq` the number of entries. */
  readonly session: SessionRecord;
  /** `ids[i]` is the id of the node made from `transcript.entries[i]`. */
  readonly ids: readonly string[];
}

/**
 * Creates a session holding a transcript: entry `i` becomes the node with seq `i` and id `opts.ids(session, i)`,
 * `createdAt` from the entry (its source timestamp) or else from `opts.clock`. Every node is validated first and
 * all are stored in one atomic write, so a failure stores nothing.
 *
 * @param store - The node store.
 * @param session - The new session's name.
 * @param transcript - An importer's result, e.g. of {@link importClaudeCode}.
 * @param opts - Clock (for entries without timestamp), id generator, output limit; see {@link DagOptions}.
 * @returns The session record and the node ids.
 * @throws {@link SessionExistsError}, {@link InvalidArgumentError} (an entry index out of range), every
 *   validation error of {@link appendNode}, {@link CycleError}, {@link DagConflictError}.
 * @example
 * ```ts
 * const t = importClaudeCode(readFileSync('session.jsonl', 'utf8'));
 * const { session } = await writeTranscript(store, 'imported', t);
 * const view = await branchView(store, session.head!);
 * ```
 */
export async function writeTranscript(store: NodeStore, session: string, transcript: Transcript, opts?: DagOptions): Promise<WrittenTranscript> {
  const o = resolveOptions(opts);
  const name = validateSessionName(session);
  if (typeof transcript !== 'object' || transcript === null || !Array.isArray(transcript.entries)) throw new InvalidArgumentError({ argument: 'transcript', reason: 'expected a Transcript with an entries array' });
  const entries = transcript.entries;
  entries.forEach((e: unknown, i) => {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) throw new InvalidArgumentError({ argument: `transcript.entries[${i}]`, reason: 'expected a TranscriptEntry object' });
    for (const key of Object.keys(e)) if (!ENTRY_KEYS.has(key)) throw new InvalidArgumentError({ argument: `transcript.entries[${i}].${key}`, reason: 'unknown field' });
  });
  const ids = entries.map((_, i) => o.ids(name, i));
  const ref = (i: number, field: string, v: number | undefined): string | undefined => {
    if (v === undefined) return undefined;
    if (!Number.isSafeInteger(v) || v < 0 || v >= entries.length) throw new InvalidArgumentError({ argument: `transcript.entries[${i}].${field}`, reason: `${String(v)} is not an entry index` });
    return ids[v];
  };
  const nodes: Node[] = entries.map((e, i) =>
    makeNode({
      id: ids[i] ?? '',
      session: name,
      seq: i,
      createdAt: e.createdAt ?? readClock(o.clock),
      ...entryInput(e, ref(i, 'caller', e.caller)),
      predecessor: ref(i, 'predecessor', e.predecessor),
    }),
  );
  const h = transcript.head;
  if (h !== null && (!Number.isSafeInteger(h) || h < 0 || h >= entries.length)) throw new InvalidArgumentError({ argument: 'transcript.head', reason: `${String(h)} is not an entry index` });
  const headNode = h === null ? undefined : nodes[h];
  if (headNode?.role === 'tool') throw new InvalidArgumentError({ argument: 'transcript.head', reason: 'HEAD cannot be a tool entry' });
  const head = headNode?.id ?? null;
  if ((await store.getSession(name)) !== undefined) throw new SessionExistsError({ session: name });
  await validateOrConflict(store, name, null, nodes, o.maxOutputBytes);
  const next: SessionRecord = { id: name, head, nextSeq: entries.length, agentRunning: false, version: 1 };
  await store.write({ expected: null, next, nodes });
  return { session: next, ids };
}
