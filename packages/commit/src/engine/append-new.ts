import type { Node, NodeInput, NodeStore } from '@ctxgit/dag';
import { branchView, canonicalJson } from '@ctxgit/dag';
import { HistoryDivergedError } from '../errors.js';

/**
 * One message of a caller's whole history, for {@link Session.appendNew}: the content of its node. A `tool` entry is
 * one answered tool call and names the assistant entry that issued it by its index in the same list.
 */
export type HistoryEntry = Omit<NodeInput, 'caller' | 'reads'> & {
  /** For a `tool` entry: index of the assistant entry that issued the call. */
  readonly caller?: number;
};

/** What {@link Session.appendNew} did. */
export interface AppendNewResult {
  /** How many leading entries were already the session's branch. */
  readonly matched: number;
  /** The nodes appended for the other entries, in order. */
  readonly appended: readonly Node[];
  /** The node of each entry, by index. */
  readonly nodes: readonly Node[];
}

/** The operations of a session {@link appendNew} needs. */
export interface AppendNewTarget {
  readonly name: string;
  head(): Promise<string | null>;
  append(input: NodeInput): Promise<Node>;
  checkout(nodeId: string): Promise<unknown>;
}

function contentKey(entry: HistoryEntry | Node): string {
  return canonicalJson({ role: entry.role, name: entry.name, input: entry.input, output: entry.output, metadata: entry.metadata });
}

/** Index of the first entry that does not match the branch, the matched nodes, and whether the branch was used up. */
function match(entries: readonly HistoryEntry[], branch: readonly Node[]): { nodes: Node[]; complete: boolean } {
  const nodes: Node[] = [];
  for (let i = 0; i < entries.length && i < branch.length; i += 1) {
    const entry = entries[i] as HistoryEntry;
    const node = branch[i] as Node;
    const callerOk = entry.caller === undefined ? node.caller === undefined : nodes[entry.caller]?.id === node.caller;
    if (!callerOk || contentKey(entry) !== contentKey(node)) return { nodes, complete: false };
    nodes.push(node);
  }
  return { nodes, complete: nodes.length === branch.length };
}

/**
 * Appends the entries of a history that the session's branch does not hold yet (a history whose first messages were
 * dropped continues the branch where its first message is, when all of the branch after it matches). When the history leaves the branch
 * after a user, system or assistant message, the head moves back there first, so the rest becomes a sibling branch.
 *
 * @internal
 */
export async function appendNew(target: AppendNewTarget, store: NodeStore, entries: readonly HistoryEntry[]): Promise<AppendNewResult> {
  const head = await target.head();
  let branch = head === null ? [] : await branchView(store, head);
  let { nodes, complete } = match(entries, branch);
  if (nodes.length === 0 && entries.length > 0) {
    // a history trimmed at the front (a sliding window) continues the branch from a later message
    for (let k = 1; k < branch.length && !complete; k += 1) {
      if ((branch[k] as Node).role === 'tool') continue;
      const window = match(entries, branch.slice(k));
      if (window.complete) ({ nodes, complete } = window);
    }
  }
  if (!complete) {
    let at: Node | undefined;
    for (const n of nodes) if (n.role !== 'tool') at = n;
    if (at === undefined) throw new HistoryDivergedError(target.name, nodes.length, 'its first message is not the branch root');
    await target.checkout(at.id);
    branch = await branchView(store, at.id);
    ({ nodes, complete } = match(entries, branch));
    if (!complete) throw new HistoryDivergedError(target.name, nodes.length, 'a tool result differs from the one stored for the same call');
  }
  const matched = nodes.length;
  const appended: Node[] = [];
  for (let i = matched; i < entries.length; i += 1) {
    const { caller, ...content } = entries[i] as HistoryEntry;
    if (caller !== undefined && (caller >= i || nodes[caller] === undefined)) throw new HistoryDivergedError(target.name, i, `caller ${caller} is not an earlier entry`);
    const node = await target.append(caller === undefined ? content : { ...content, caller: (nodes[caller] as Node).id });
    nodes.push(node);
    appended.push(node);
  }
  return { matched, appended, nodes };
}
