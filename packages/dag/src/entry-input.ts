import type { NodeInput } from './node-input.js';
import type { TranscriptEntry } from './transcript.js';

/** What {@link entryInput} returns: a `NodeInput` whose `caller` is of the type given (a node id, or a batch index). */
export type EntryInput<C extends string | number = string> = Omit<NodeInput, 'caller' | 'reads'> & { readonly caller?: C };

/**
 * The node input of a transcript entry: its role, output, and, when the entry has them, its name, input and
 * metadata; `caller` is the caller's node as the writer names it (an entry names its caller by index into the
 * transcript, a node by id, a batch input by index into the batch), omitted when undefined. The entry's
 * `predecessor` and `createdAt` are not part of it: the writer places the node (checkout) and dates it (clock).
 *
 * @param entry - a transcript entry, e.g. of `importSweAgentTraj(text).entries`
 * @param caller - the caller's id (or batch index) for a tool entry @defaultValue none
 * @returns the input, ready for `appendNode`, `Session.append` or (with an index) `appendNodes`
 * @example
 * ```ts
 * const ids: string[] = [];
 * for (const e of transcript.entries) {
 *   const node = await appendNode(store, 'chat', entryInput(e, e.caller === undefined ? undefined : ids[e.caller]));
 *   ids.push(node.id);
 * }
 * ```
 */
export function entryInput<C extends string | number = string>(entry: TranscriptEntry, caller?: C): EntryInput<C> {
  return {
    role: entry.role,
    output: entry.output,
    ...(entry.name === undefined ? {} : { name: entry.name }),
    ...(entry.input === undefined ? {} : { input: entry.input }),
    ...(caller === undefined ? {} : { caller }),
    ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }),
  };
}
