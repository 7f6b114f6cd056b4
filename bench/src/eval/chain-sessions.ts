import type { Node } from '@ctxgit/dag';
import type { Transcript } from './transcript.js';

const calls = (nodes: readonly Node[]): number => nodes.filter((n, i) => n.role === 'assistant' && i > 0).length;

/**
 * One long session made of a corpus's conversations one after the other, cycling through them (with new node ids)
 * until it holds at least `minCalls` model calls: what an agent that works through many tasks in one session sends.
 * The first conversation's system items open it; later ones are dropped (a session has one system prompt). Node ids
 * are prefixed with the pass and conversation, `caller` and `predecessor` follow them, `seq` counts up. Timestamps are
 * not kept (the pieces come from different days): calls are back to back. `conversationOf` tells each node's piece
 * (`<pass>.<conversation>`): the agent that wrote a step saw its own conversation only, so a word it shares with
 * another piece's tool result is a coincidence, not a reuse (see `prepareCalls`).
 * @example
 * ```ts
 * chainSessions('long-swe-agent', corpus.transcripts, 400).nodes.length;
 * ```
 */
export function chainSessions(id: string, transcripts: readonly Transcript[], minCalls: number): Transcript {
  const out: Node[] = [];
  const conversationOf = new Map<string, string>();
  if (transcripts.every((t) => calls(t.nodes) === 0)) throw new Error(`${id}: no conversation has a model call`);
  let made = 0;
  let last: string | undefined;
  for (let pass = 0; made < minCalls; pass++) {
    transcripts.forEach((t, k) => {
      if (made >= minCalls) return;
      const prefix = `${pass}.${k}.`;
      const ids = new Map<string, string>();
      for (const n of t.nodes) {
        if (n.role === 'system' && out.length > 0) continue;
        const nid = prefix + n.id;
        ids.set(n.id, nid);
        const caller = n.caller === undefined ? undefined : ids.get(n.caller);
        const { caller: _c, predecessor: _p, ...rest } = n;
        const node: Node = {
          ...rest,
          id: nid,
          session: id,
          seq: out.length,
          createdAt: out.length,
          ...(caller === undefined ? {} : { caller }),
          ...(n.role === 'tool' || last === undefined ? {} : { predecessor: last }),
        };
        out.push(node);
        conversationOf.set(nid, `${pass}.${k}`);
        if (n.role !== 'tool') last = nid;
        if (n.role === 'assistant' && out.length > 1) made++;
      }
    });
  }
  return { id, corpus: id, nodes: out, timestamps: false, conversationOf };
}
