import type { Node } from '@ctxgit/dag';
import type { ContextItem } from '@ctxgit/rules';
import { reusedIdentifiers, shapedReuses } from './dependency-recall.js';
import type { Transcript } from './transcript.js';

/** One model call of a transcript: the request before an assistant step, shared by every policy. */
export interface PreparedCall {
  /** Every node before the step. */
  readonly history: readonly Node[];
  /** The same nodes as `full` items. */
  readonly historyItems: readonly ContextItem[];
  /** Nodes appended since the previous call. */
  readonly newNodes: readonly Node[];
  readonly step: Node;
  /** Identifiers the step reuses from earlier tool results of its own conversation (see {@link reusedIdentifiers}). */
  readonly reused: readonly string[];
  /** Of `reused`, those shaped like identifiers where the step writes them (see {@link shapedReuses}). */
  readonly reusedShaped: readonly string[];
  /** Time of the call: the last history node's `createdAt` with timestamps, else its `seq`. */
  readonly now: number;
  /** Send time for the price model: `now` with timestamps, else `null`. */
  readonly at: number | null;
}

/** A demonstration the agent put in its requests (SWE-agent `is_demo`): history, not a model call. */
const isDemo = (node: Node): boolean => (node.metadata?.['source'] as { is_demo?: unknown } | undefined)?.is_demo === true;

/**
 * Cuts a transcript into its model calls: one per assistant node that has history before it and is not a
 * demonstration. In a chained session (`conversationOf`), the identifiers a step reuses are looked for in its own
 * conversation (and the system items) only: the agent that wrote it never saw the others.
 * @example
 * ```ts
 * const calls = prepareCalls(transcript, (node) => itemFromNode(node, tokenizer));
 * calls[0].step.role; // 'assistant'
 * ```
 */
export function prepareCalls(transcript: Transcript, toItem: (node: Node) => ContextItem): PreparedCall[] {
  const nodes = transcript.nodes;
  const items = nodes.map(toItem);
  const cache = new WeakMap<Node, readonly string[]>();
  const calls: PreparedCall[] = [];
  let last = 0;
  nodes.forEach((step, j) => {
    if (step.role !== 'assistant' || j === 0 || isDemo(step)) return;
    const history = nodes.slice(0, j);
    const issued = nodes.slice(j + 1).filter((node) => node.role === 'tool' && node.caller === step.id);
    const previous = history[history.length - 1] as Node;
    const now = transcript.timestamps ? previous.createdAt : previous.seq;
    const own = transcript.conversationOf;
    const seen = own === undefined ? history : history.filter((n) => n.role === 'system' || own.get(n.id) === own.get(step.id));
    const reused = reusedIdentifiers(seen, step, issued, cache);
    calls.push({
      history,
      historyItems: items.slice(0, j),
      newNodes: nodes.slice(last, j),
      step,
      reused,
      reusedShaped: shapedReuses(reused, step, issued),
      now,
      at: transcript.timestamps ? now : null,
    });
    last = j;
  });
  return calls;
}
