import type { CommitSummary, ContextCommit, Repo } from '@ctxgit/commit';
import type { RenderOptions } from '@ctxgit/render';
import { render, stablePrefix } from '@ctxgit/render';
import { itemFromNode } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';
import { loadTokenizer, resolveModel } from '@ctxgit/tokenize';
import type { StateCounts } from './states.js';
import { stateCounts } from './states.js';

/** Figures of one commit, as `ctxgit stats` prints them (tokens unless said otherwise). */
export interface CommitStats {
  readonly id: string;
  readonly headNodeId: string;
  /** What ctxgit feeds: the commit's total. */
  readonly totalTokens: number;
  /** What the same nodes would cost with every item full (no rule applied). */
  readonly fullTokens: number;
  readonly window: number;
  /** `totalTokens / window`. */
  readonly occupancy: number;
  readonly states: StateCounts;
  /** What the rules did on this turn: items added, aged, cleared and folded; index of the first changed item. */
  readonly summary: CommitSummary;
  /** Items the cap cut on this turn (head and tail kept): reason `capped` here, not in the previous commit. */
  readonly capped: number;
  /** Items of the commit held cut by the cap (full, head and tail kept). */
  readonly cappedItems: number;
  /** Leading messages identical to the previous commit's render (0 for the first commit). */
  readonly prefixMessages: number;
  /** Share of the previous commit's rendered bytes that is a byte-identical prefix of this one (null for the first). */
  readonly prefixShare: number | null;
}

/** Measures a run of commits in order; each is compared with the one before it. */
export async function commitStats(repo: Repo, commits: readonly ContextCommit[], options: RenderOptions): Promise<CommitStats[]> {
  const out: CommitStats[] = [];
  const fullOf = new Map<string, number>();
  const tokenizers = new Map<string, Tokenizer>();
  let previous: ReturnType<typeof render> | undefined;
  let cappedBefore = new Set<string>();
  for (const c of commits) {
    const encoding = resolveModel(c.model, { window: c.window }).encoding;
    let tokenizer = tokenizers.get(encoding);
    if (tokenizer === undefined) tokenizers.set(encoding, (tokenizer = await loadTokenizer(encoding)));
    // A session with a request frame counts each item with its message wrappers: the full history is counted the same
    // way, with the wrapper tokens its full items show (a message's, and a tool call's on top).
    const nodeTokens = async (id: string): Promise<number | undefined> => {
      let t = fullOf.get(id);
      if (t === undefined) {
        const node = (await repo.store.forSession(c.session).getNode(id)) ?? (await repo.store.getNode(id));
        if (node === undefined) return undefined;
        fullOf.set(id, (t = itemFromNode(node, tokenizer).tokens));
      }
      return t;
    };
    const wrap = { message: Infinity, tool: Infinity };
    for (const item of c.items) {
      if (item.state !== 'full' || item.reason === 'capped' || item.sourceNodeId.startsWith('sm_')) continue;
      const t = await nodeTokens(item.sourceNodeId);
      if (t === undefined) continue;
      const kind = item.role === 'tool' ? 'tool' : 'message';
      wrap[kind] = Math.min(wrap[kind], Math.max(0, item.tokens - t));
    }
    const perMessage = Number.isFinite(wrap.message) ? wrap.message : 0;
    const perTool = Number.isFinite(wrap.tool) ? wrap.tool : perMessage;
    const wrapped = (role: string, t: number): number => t + (role === 'tool' ? perTool : perMessage);
    let full = 0;
    for (const item of c.items) {
      if (item.state === 'summary') {
        // The originals behind a summary live under it (not in the live list): read once per summary.
        let t = fullOf.get(item.key);
        if (t === undefined) {
          t = 0;
          for (const o of (await (await repo.openSession(c.session)).expand(item.key, { commit: c.id })).originals) t += wrapped(o.node.role, itemFromNode(o.node, tokenizer).tokens);
          fullOf.set(item.key, t);
        }
        full += t;
        continue;
      }
      const t = await nodeTokens(item.sourceNodeId);
      full += t === undefined ? item.tokens : wrapped(item.role, t);
    }
    // the render only measures the cacheable prefix: it names the commit's own model, whatever the provider
    const body = render(c, { ...options, model: options.model ?? c.model.slice(c.model.indexOf(':') + 1) });
    const capped = new Set(c.items.filter((it) => it.reason === 'capped').map((it) => it.key));
    const p = previous === undefined ? undefined : stablePrefix(previous, body);
    out.push({
      id: c.id,
      headNodeId: c.headNodeId,
      totalTokens: c.totalTokens,
      fullTokens: full,
      window: c.window,
      occupancy: round(c.totalTokens / c.window),
      states: stateCounts(c.items, c.foldedItems),
      summary: c.summary,
      capped: [...capped].filter((k) => !cappedBefore.has(k)).length,
      cappedItems: capped.size,
      prefixMessages: p?.messages ?? 0,
      prefixShare: p === undefined ? null : round(p.totalBytes[0] === 0 ? 1 : p.bytes / p.totalBytes[0]),
    });
    previous = body;
    cappedBefore = capped;
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
