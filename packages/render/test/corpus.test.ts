import { describe, expect, it } from 'vitest';
import type { ContextItem } from '@ctxgit/rules';
import { RenderError, render, stablePrefix, validateRequest, type ProviderName, type RenderOutput } from '../src/index.js';
import { rawItemText } from '../src/raw-item-text.js';
import { commitOf } from './support/items.js';
import { OPTIONS, build, settled } from './support/prefix.js';
import { loadCorpus, type CorpusNode, type CorpusTranscript } from './support/corpus.js';

const PROVIDERS: ProviderName[] = ['openai-chat', 'openai-responses', 'anthropic', 'text'];
const corpus = loadCorpus();

/** The documented item shape of a node (as @ctxgit/rules' itemFromNode writes it); tokens ≈ chars / 4. */
function itemOf(node: CorpusNode): ContextItem {
  const callId = typeof node.metadata?.['callId'] === 'string' ? node.metadata['callId'] : node.id;
  const blocks: ContextItem['blocks'] =
    node.role === 'tool'
      ? [
          { type: 'tool_call', id: callId, name: node.name ?? 'tool', arguments: JSON.stringify(node.input ?? {}) },
          { type: 'tool_result', callId, name: node.name ?? 'tool', output: node.output, isError: node.metadata?.['isError'] === true },
        ]
      : [{ type: 'text', text: node.output }];
  const chars = blocks.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : block.type === 'tool_call' ? block.arguments.length : block.output.length), 0);
  return { key: node.id, sourceNodeId: node.id, role: node.role, state: 'full', locked: false, blocks, tokens: Math.ceil(chars / 4), reason: 'new', touchedAt: node.createdAt };
}

/** Indices after which the model is called: the node is a user or tool turn and the next one is not a tool result of it. */
function commitPoints(nodes: readonly CorpusNode[]): number[] {
  const points: number[] = [];
  nodes.forEach((node, i) => {
    const next = nodes[i + 1];
    if ((node.role === 'user' || node.role === 'tool') && (next === undefined || next.role === 'assistant' || next.role === 'user')) points.push(i);
  });
  return points;
}

/** Deterministic states for the commit whose head is item `head`: old tools aged or cleared, the oldest third folded. */
function statesAt(items: readonly ContextItem[]): ContextItem[] {
  const tail = items.length - 6;
  const folded = Math.floor(items.length / 3);
  const out: ContextItem[] = [];
  const foldedKeys: string[] = [];
  items.forEach((item, i) => {
    if (item.role !== 'system' && i < folded) {
      foldedKeys.push(item.key);
      out.push({ ...item, state: 'summarized', mergedInto: 'sm_0' });
      return;
    }
    if (foldedKeys.length > 0 && !out.some((it) => it.state === 'summary')) {
      out.push({ key: 'sm_0', sourceNodeId: 'sm_0', role: 'assistant', state: 'summary', locked: false, blocks: [{ type: 'text', text: `Folded ${foldedKeys.length} items.` }], tokens: 8, reason: 'fold', touchedAt: 0 });
    }
    if (item.role === 'tool' && i < tail && i % 3 !== 2) {
      const blocks = item.blocks.map((block) =>
        block.type === 'tool_call'
          ? { ...block, arguments: block.arguments.slice(0, 200) }
          : block.type === 'tool_result'
            ? { ...block, output: i % 3 === 0 ? `[tool ${block.name}] output: ${block.output.slice(0, 80)}…` : '[cleared]' }
            : block,
      );
      out.push({ ...item, state: i % 3 === 0 ? 'aged' : 'cleared', blocks });
      return;
    }
    out.push(item);
  });
  return out;
}

/** Renders and validates for every provider; a refusal is only allowed when the last item has no text. */
function checkAll(items: readonly ContextItem[], model: string, where: string): Partial<Record<ProviderName, RenderOutput>> {
  const out: Partial<Record<ProviderName, RenderOutput>> = {};
  for (const provider of PROVIDERS) {
    try {
      // every provider's request names the commit's model (another family's is refused without one)
      const body = render(commitOf(items, model), { provider, model: model.slice(model.indexOf(':') + 1) });
      const issues = validateRequest(provider, body);
      if (issues.length > 0) throw new Error(`${where} ${provider}: ${JSON.stringify(issues.slice(0, 3))}`);
      out[provider] = body;
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      const last = items.filter((item) => item.state !== 'summarized').at(-1);
      expect(last === undefined || rawItemText(last).trim() === '', `${where} ${provider}: ${error.message}`).toBe(true);
    }
  }
  return out;
}

describe('corpus', () => {
  it('loads every transcript of the shared corpus', () => {
    expect(corpus.length).toBe(150 + 16 + 4);
    expect(corpus.every((t) => t.nodes.length > 0)).toBe(true);
    expect(corpus.flatMap((t) => t.nodes).filter((n) => n.role === 'tool').length).toBeGreaterThan(800);
  });

  it('renders a valid request for every provider at every model call, with aged, cleared, summarized and summary items', () => {
    let renders = 0;
    for (const transcript of corpus) {
      const items = transcript.nodes.map(itemOf);
      for (const head of commitPoints(transcript.nodes)) {
        const out = checkAll(statesAt(items.slice(0, head + 1)), 'anthropic:claude-sonnet-4-5', `${transcript.name}@${head}`);
        renders += Object.keys(out).length;
      }
    }
    expect(renders).toBeGreaterThan(4 * 1500);
  });
});

describe.each([4_000, 16_000])('corpus replayed through runPipeline, history budget %i tokens', (historyBudget) => {
  it('renders every commit of every session into a valid request for every provider', async () => {
    const { RulesCache, RulesOverBudgetError, runPipeline } = await import('@ctxgit/rules');
    const { estimateTokenizer } = await import('@ctxgit/tokenize');
    const stats = { commits: 0, renders: 0, folded: 0, overBudget: 0, prefixMessages: 0, prefixBase: 0, prefixChecks: 0 };
    const replay = (transcript: CorpusTranscript): void => {
      // A backend declares its tools; then no tool first used later changes the Anthropic prefix.
      const tools = [...new Set(transcript.nodes.filter((n) => n.role === 'tool').map((n) => n.name ?? ''))].filter((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name)).map((name) => ({ name }));
      const options = { ...OPTIONS, tools };
      let parent: readonly ContextItem[] = [];
      const cache = new RulesCache();
      // What each summary folded: the live list does not hold it, a later fold that absorbs the summary reads it.
      const folds = new Map<string, readonly ContextItem[]>();
      let previous: Partial<Record<ProviderName, RenderOutput>> = {};
      let from = 0;
      for (const head of commitPoints(transcript.nodes)) {
        const nodes = transcript.nodes.slice(from, head + 1);
        from = head + 1;
        let result: ReturnType<typeof runPipeline>;
        try {
          result = runPipeline(parent, nodes, { now: (transcript.nodes[head]?.createdAt ?? 0) + 1, tokenizer: estimateTokenizer, historyBudget, cache, foldedOf: (key) => folds.get(key) });
          for (const [key, list] of result.folds) folds.set(key, list);
        } catch (error) {
          // The pipeline refuses a turn it cannot fit (e.g. protected system rules above the budget): no commit to render.
          if (!(error instanceof RulesOverBudgetError)) throw error;
          stats.overBudget += 1;
          return;
        }
        // The earlier render stays a prefix of the later one up to the first item the rules changed.
        for (const provider of PROVIDERS) {
          const bound = settled(build(provider, parent.slice(0, result.firstChangedIndex), options), result.firstChangedIndex);
          const shared = stablePrefix(build(provider, parent, options), build(provider, result.items, options));
          expect(shared.messages, `${transcript.name}@${head} ${provider}`).toBeGreaterThanOrEqual(bound);
          stats.prefixChecks += 1;
        }
        parent = result.items;
        stats.commits += 1;
        if (result.items.some((item) => item.state === 'summary')) stats.folded += 1;
        const out = checkAll(result.items, 'anthropic:claude-sonnet-4-5', `${transcript.name}@${head}`);
        stats.renders += Object.keys(out).length;
        const before = previous['openai-chat'];
        const after = out['openai-chat'];
        if (before !== undefined && after !== undefined) {
          const shared = stablePrefix(before, after);
          stats.prefixMessages += shared.messages;
          stats.prefixBase += shared.totalMessages[0];
        }
        previous = out;
      }
    };
    corpus.forEach(replay);
    expect(stats.commits).toBeGreaterThan(1500);
    expect(stats.renders).toBeGreaterThan(stats.commits * 3);
    if (historyBudget === 4_000) expect(stats.folded).toBeGreaterThan(0);
    expect(stats.prefixMessages).toBeGreaterThan(0);
    console.info(`budget ${historyBudget}: ${JSON.stringify(stats)} prefix reuse ${(stats.prefixMessages / stats.prefixBase).toFixed(3)}`);
  });
});
