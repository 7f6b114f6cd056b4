import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importClaudeCode, importOpenAIChat, importSweAgentTraj, type Node, type Transcript } from '@ctxgit/dag';
import type { Tokenizer } from '@ctxgit/tokenize';
import { analyzeSpan, distinctiveTokens, runPipeline, RulesCache, RulesOverBudgetError, type ContextItem } from '../src/index.js';
import { FoldStore } from './helpers.js';

/** The shared corpus, beside the repository. */
export const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

export interface CorpusFile {
  readonly corpus: string;
  readonly file: string;
  readonly transcripts: readonly Transcript[];
}

/** Every transcript of the corpus, through the importers of `@ctxgit/dag`. */
export function loadCorpus(): CorpusFile[] {
  const out: CorpusFile[] = [];
  for (const corpus of readdirSync(CORPUS).sort()) {
    for (const file of readdirSync(join(CORPUS, corpus)).sort()) {
      const text = (): string => readFileSync(join(CORPUS, corpus, file), 'utf8');
      if (file.endsWith('.traj')) out.push({ corpus, file, transcripts: [importSweAgentTraj(text(), { malformed: 'skip' })] });
      else if (file.endsWith('.jsonl') && corpus === 'claude-code') out.push({ corpus, file, transcripts: [importClaudeCode(text(), { malformed: 'skip' })] });
      else if (file.endsWith('.jsonl')) out.push({ corpus, file, transcripts: importOpenAIChat(text(), { malformed: 'skip' }) });
    }
  }
  return out;
}

/** Entries as nodes, in entry (branch-view) order; transcripts without timestamps get one second per entry. */
export function transcriptNodes(t: Transcript, session: string): Node[] {
  const id = (i: number): string => `${session}_${i}`;
  return t.entries.map((e, i): Node => ({
    id: id(i),
    session,
    seq: i,
    createdAt: e.createdAt ?? i * 1000,
    role: e.role,
    output: e.output,
    ...(e.name !== undefined ? { name: e.name } : {}),
    ...(e.input !== undefined ? { input: e.input } : {}),
    ...(e.predecessor !== undefined ? { predecessor: id(e.predecessor) } : {}),
    ...(e.caller !== undefined ? { caller: id(e.caller) } : {}),
    ...(e.metadata !== undefined ? { metadata: e.metadata } : {}),
  }));
}

/** Figures of one replay. */
export interface ReplayFigures {
  calls: number;
  /** Sum over calls of the history tokens without any rule (every node in full). */
  fullTokens: number;
  /** Sum over calls of the history tokens the pipeline kept. */
  keptTokens: number;
  maxHistory: number;
  /** Identifiers the next step reuses from an earlier tool result, and how many are still visible. */
  reused: number;
  reusedVisible: number;
  /** The same, restricted to results on the protected critical chain. */
  chainReused: number;
  chainVisible: number;
  /** Chain identifiers missing only because the per-item cap cut them on arrival. */
  chainLostToCap: number;
  folds: number;
  violations: string[];
}

const visibleText = (items: readonly ContextItem[]): string =>
  items
    .filter((i) => i.state !== 'summarized')
    .map((i) => i.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_call' ? b.arguments : b.output)).join('\n'))
    .join('\n')
    .toLowerCase();

/**
 * Replays nodes call by call: before each assistant turn the pipeline runs on the nodes since the last run,
 * then the state is checked against the next assistant step (its text and the arguments of its calls).
 */
export function replay(nodes: readonly Node[], historyBudget: number, tokenizer: Tokenizer): ReplayFigures {
  const f: ReplayFigures = { calls: 0, fullTokens: 0, keptTokens: 0, maxHistory: 0, reused: 0, reusedVisible: 0, chainReused: 0, chainVisible: 0, chainLostToCap: 0, folds: 0, violations: [] };
  const emergency = Math.floor(0.95 * historyBudget);
  let items: readonly ContextItem[] = [];
  const cache = new RulesCache();
  let from = 0;
  let full = 0;
  const original = new Map<string, Node>();
  const folds = new FoldStore();
  for (let i = 0; i < nodes.length; i++) {
    const next = nodes[i] as Node;
    if (next.role !== 'assistant' || i === 0) continue;
    const batch = nodes.slice(from, i);
    from = i;
    if (batch.length === 0) continue;
    for (const n of batch) {
      original.set(n.id, n);
      if (n.role !== 'system') full += tokenizer.count(n.role === 'tool' ? `${n.name ?? ''}(${JSON.stringify(n.input ?? {})})\n${n.output}` : n.output);
    }
    const now = batch.at(-1)!.createdAt;
    let r: ReturnType<typeof runPipeline>;
    try {
      r = folds.add(runPipeline(items, batch, { now, tokenizer, historyBudget, foldedOf: folds.get, cache }));
    } catch (e) {
      if (!(e instanceof RulesOverBudgetError)) throw e;
      const last = [...items, ...batch.map((n) => ({ key: n.id, role: n.role, state: 'new', tokens: tokenizer.count(n.output), reason: 'new' }))];
      f.violations.push(`${next.id}: ${e.message.slice(0, 90)} | ${last.filter((x) => x.state !== 'summarized').map((x) => `${x.key.slice(-4)}:${x.role[0]}:${x.state[0]}:${x.tokens}`).join(' ')}`);
      break;
    }
    items = r.items;
    f.calls++;
    f.fullTokens += full;
    f.keptTokens += r.historyTokens;
    f.maxHistory = Math.max(f.maxHistory, r.historyTokens);
    f.folds += r.report.summaries;
    if (r.historyTokens > emergency) f.violations.push(`${next.id}: history ${r.historyTokens} > ${emergency}`);
    const lastUser = [...original.values()].filter((n) => n.role === 'user').at(-1);
    if (lastUser !== undefined && items.find((it) => it.key === lastUser.id)?.state !== 'full') f.violations.push(`${next.id}: latest user ${lastUser.id} not full`);
    for (const it of items) if (it.role === 'system' && it.state !== 'full') f.violations.push(`${next.id}: system ${it.key} ${it.state}`);

    // The next step: the assistant's text plus the arguments of the calls it issues.
    const calls = nodes.slice(i + 1).filter((n) => n.caller === next.id);
    const step = distinctiveTokens([next.output, ...calls.map((c) => JSON.stringify(c.input ?? {}))].join('\n'));
    const latestUserSeq = lastUser?.seq ?? -1;
    const analysis = analyzeSpan(items, { includeSummarized: true });
    const chain = new Set(analysis.criticalChain);
    const seen = visibleText(items);
    const byKey = new Map(items.map((it) => [it.key, it] as const));
    for (const tok of step) {
      const sources = [...original.values()].filter((n) => n.role === 'tool' && n.output.toLowerCase().includes(tok));
      if (sources.length === 0) continue;
      const visible = seen.includes(tok);
      f.reused++;
      if (visible) f.reusedVisible++;
      // The chain of the current task (after the latest user turn): earlier chains may have been released.
      const onChain = sources.filter((n) => chain.has(n.id) && byKey.get(n.id)?.state !== 'summarized' && n.seq > latestUserSeq);
      if (onChain.length === 0) continue;
      f.chainReused++;
      if (visible) f.chainVisible++;
      else if (onChain.every((n) => byKey.get(n.id)?.reason === 'capped')) f.chainLostToCap++;
      else f.violations.push(`${next.id}: chain identifier ${tok} from ${onChain.map((n) => `${n.id}:${byKey.get(n.id)?.state}`).join(',')} not visible`);
    }
  }
  return f;
}
