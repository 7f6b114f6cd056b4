import type { BatchNodeInput, Json, Node, NodeInput } from '@ctxgit/dag';
import { HistoryDivergedError } from '../errors.js';
import type { ContextCommit } from '../store/context-commit.js';

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
  /** The commit of the new head, written with the nodes, when `Session.appendNew` was asked to commit. */
  readonly commit?: ContextCommit;
}

/** The operations of a session {@link appendNew} needs. */
export interface AppendNewTarget {
  readonly name: string;
  head(): Promise<string | null>;
  /** The branch of a head (`branchView`), or the one the session kept from its last call when it still holds. */
  branch(head: string): Promise<readonly Node[]>;
  /** Appends the inputs in one write (a `caller` may be the index of an earlier input); at least one. */
  appendAll(inputs: readonly BatchNodeInput[]): Promise<readonly Node[]>;
  checkout(nodeId: string): Promise<unknown>;
}

/** Equal as stored JSON: key order and undefined members aside (stored values hold neither undefined nor -0 apart from 0). */
function sameJson(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const x = a as { readonly [key: string]: Json | undefined };
  const y = b as { readonly [key: string]: Json | undefined };
  const kx = Object.keys(x).filter((k) => x[k] !== undefined);
  if (kx.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  for (const k of kx) if (!Object.prototype.hasOwnProperty.call(y, k) || !sameJson(x[k], y[k])) return false;
  return true;
}

/** The entry holds the node's content: role, name, input, output, metadata. */
const sameContent = (entry: HistoryEntry, node: Node): boolean =>
  entry.role === node.role && entry.name === node.name && entry.output === node.output && sameJson(entry.input, node.input) && sameJson(entry.metadata as Json | undefined, node.metadata as Json | undefined);

/** The entries of an earlier call and the branch it left, one node for each entry: what {@link appendNew} may skip comparing. */
export interface MatchedBefore {
  readonly entries: readonly HistoryEntry[];
  readonly nodes: readonly Node[];
}

/**
 * Index of the first entry that does not match the branch, the matched nodes, and whether the branch was used up. An
 * entry that is the very object `before` paired with the very node at its place was compared then (or its node made
 * from it): it matches without comparing its content again.
 */
function match(entries: readonly HistoryEntry[], branch: readonly Node[], before?: MatchedBefore): { nodes: Node[]; complete: boolean } {
  const nodes: Node[] = [];
  for (let i = 0; i < entries.length && i < branch.length; i += 1) {
    const entry = entries[i] as HistoryEntry;
    const node = branch[i] as Node;
    if (before !== undefined && entry === before.entries[i] && node === before.nodes[i]) {
      nodes.push(node);
      continue;
    }
    const callerOk = entry.caller === undefined ? node.caller === undefined : nodes[entry.caller]?.id === node.caller;
    if (!callerOk || !sameContent(entry, node)) return { nodes, complete: false };
    nodes.push(node);
  }
  return { nodes, complete: nodes.length === branch.length };
}

/**
 * Appends the entries of a history that the session's branch does not hold yet, in one write (a history whose first messages were
 * dropped continues the branch where its first message is, when all of the branch after it matches). When the history leaves the branch
 * after a user, system or assistant message, the head moves back there first, so the rest becomes a sibling branch. `before`: the
 * entries and branch of the session's previous call, whose entries passed again at the same place are not compared again.
 *
 * @internal
 */
export async function appendNew(
  target: AppendNewTarget,
  entries: readonly HistoryEntry[],
  before?: MatchedBefore,
): Promise<{ readonly result: AppendNewResult; readonly branch: readonly Node[] }> {
  const head = await target.head();
  let branch = head === null ? [] : await target.branch(head);
  let { nodes, complete } = match(entries, branch, before);
  // where the history starts in the branch
  let from = 0;
  if (nodes.length === 0 && entries.length > 0) {
    // a history trimmed at the front (a sliding window) continues the branch from a later message
    for (let k = 1; k < branch.length && !complete; k += 1) {
      if ((branch[k] as Node).role === 'tool') continue;
      const window = match(entries, branch.slice(k));
      if (window.complete) ({ nodes, complete } = window), (from = k);
    }
  }
  if (!complete) {
    let at: Node | undefined;
    for (const n of nodes) if (n.role !== 'tool') at = n;
    if (at === undefined) throw new HistoryDivergedError(target.name, nodes.length, 'its first message is not the branch root');
    await target.checkout(at.id);
    branch = await target.branch(at.id);
    from = 0;
    ({ nodes, complete } = match(entries, branch));
    if (!complete) throw new HistoryDivergedError(target.name, nodes.length, 'a tool result differs from the one stored for the same call');
  }
  const matched = nodes.length;
  const inputs: BatchNodeInput[] = [];
  for (let i = matched; i < entries.length; i += 1) {
    const { caller, ...content } = entries[i] as HistoryEntry;
    if (caller !== undefined && (caller >= i || (caller < matched && nodes[caller] === undefined))) throw new HistoryDivergedError(target.name, i, `caller ${caller} is not an earlier entry`);
    // a caller among the new entries is named by its place in the batch
    inputs.push(caller === undefined ? content : { ...content, caller: caller < matched ? (nodes[caller] as Node).id : caller - matched });
  }
  const appended = inputs.length === 0 ? [] : await target.appendAll(inputs);
  nodes.push(...appended);
  return { result: { matched, appended, nodes }, branch: [...branch.slice(0, from), ...nodes] };
}
