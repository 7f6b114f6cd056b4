/**
 * Tool catalogue benchmark: a synthetic catalogue of 1,000 tools (~400 KB of schemas, deterministic) holding the
 * tools the corpus sessions call, replayed on every corpus session (one model call per assistant node). Three ways of
 * declaring tools are compared on each call:
 * - `full`: the whole catalogue, every call (a stable prefix: cached after the first call);
 * - `topK`: the K tools whose words best match the latest user message (changes, and breaks the cache, per request);
 * - `view`: ctxgit's advertised view (`nextToolView` with the default options), `open_tools` last;
 * - `view3`: the same with `autoOpenGroups: 3` (three likely groups opened up front instead of one).
 * Reported: tool tokens per call (OpenAI cookbook count, o200k), the share of calls whose needed tools were advertised,
 * reached by a known-name call, or reached within one navigation round (a search with the words of the tool's name,
 * or, stricter, with the words of the assistant's text); the number of view changes; and the cost of the tools under
 * each provider's prefix-cache prices, where a change of the tools (which come first in every request) re-bills the
 * whole history after them at the write price.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/tools.ts [--quick]`
 */
import { pathToFileURL } from 'node:url';
import type { Node } from '@ctxgit/dag';
import type { AdvertisedTool, ToolRound, ToolView } from '@ctxgit/rules';
import { advertisedPaths, advertisedTools, createToolCatalogue, nextToolView, OPEN_TOOLS, resolveToolViewOptions } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';
import { countRequest, loadTokenizer } from '@ctxgit/tokenize';
import { loadCorpus } from './eval/load-corpus.js';
import { ANTHROPIC_SONNET_4_5, OPENAI_GPT_4_1, type CachePricing } from './eval/pricing.js';
import { median, p95 } from './stats.js';
import { providerSafeName, syntheticCatalogue } from './tools/synthetic-catalogue.js';

/** Size of the static top-k contender. */
const TOP_K = 20;
const PRICINGS: readonly CachePricing[] = [ANTHROPIC_SONNET_4_5, OPENAI_GPT_4_1];

/** One way of declaring tools, over every call of the corpus. */
export interface ToolsContender {
  readonly name: 'full' | 'topK' | 'view' | 'view3';
  /** Tool tokens per call. */
  readonly toolTokensMedian: number;
  readonly toolTokensMean: number;
  readonly toolTokensP95: number;
  /** Calls whose tool declarations differ from the previous call's (a prefix break), per price model (Anthropic also declares the tools the history used). */
  readonly toolChanges: Readonly<Record<string, number>>;
  /** Extra model calls spent navigating (view: one per search round). */
  readonly navigationCalls: number;
  /** Share of needed tools advertised on the call that used them. */
  readonly advertisedShare: number;
  /** Share of needed tools advertised, called by a name seen before, or found by one search round with the words of the tool's name. */
  readonly reachableShare: number;
  /** The same, when the one search round uses only the words of the assistant's own text. */
  readonly reachableShareAssistantWords: number;
  /** Cost of the tool declarations (and of the history re-billed when they change) over cost of `full`, per price model. */
  readonly toolCostOverFull: Readonly<Record<string, number>>;
  /** Cost of the whole input (history + tools + navigation calls) over that of `full`, per price model. */
  readonly requestCostOverFull: Readonly<Record<string, number>>;
  /** The tool cost under the first price model (Anthropic), split: the declarations, the history re-billed when they change, navigation calls; as shares of `full`'s tool cost. */
  readonly toolCostParts: { readonly declarations: number; readonly rebilledHistory: number; readonly navigation: number };
}

/** What {@link runToolsBench} measured. */
export interface ToolsBenchResult {
  readonly quick: boolean;
  readonly catalogue: { readonly tools: number; readonly groups: number; readonly schemaBytes: number; readonly tokens: number; readonly corpusTools: number };
  readonly sessions: number;
  readonly calls: number;
  readonly neededTools: number;
  readonly contenders: readonly ToolsContender[];
  /** The target for the default view: `met` with the name-word search, `metWithAssistantWords` with the stricter one. */
  readonly target: { readonly toolCostOverFull: number; readonly reachableShare: number; readonly met: boolean; readonly metWithAssistantWords: boolean };
  readonly notes: readonly string[];
}

interface Tally {
  tokens: number[];
  changes: Record<string, number>;
  nav: number;
  advertised: number;
  reachable: number;
  reachableStrict: number;
  toolCost: Record<string, number>;
  requestCost: Record<string, number>;
  parts: { declarations: number; rebilledHistory: number; navigation: number };
}

const tally = (): Tally => ({ tokens: [], changes: {}, nav: 0, advertised: 0, reachable: 0, reachableStrict: 0, toolCost: {}, requestCost: {}, parts: { declarations: 0, rebilledHistory: 0, navigation: 0 } });

/** Tokens of tool declarations in an OpenAI Chat request: each tool counted once, plus the list's 12. */
class ToolTokens {
  readonly #tok: Tokenizer;
  readonly #memo = new Map<string, number>();
  constructor(tok: Tokenizer) {
    this.#tok = tok;
  }
  of(tools: readonly AdvertisedTool[]): number {
    let n = 12;
    for (const t of tools) {
      const key = `${t.name}\u0000${t.description ?? ''}`;
      let c = this.#memo.get(key);
      if (c === undefined) {
        const body = { messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: t.name, description: t.description ?? '', parameters: t.parameters ?? { type: 'object' } } }] };
        c = countRequest('openai-chat', body, this.#tok).tools - 12;
        this.#memo.set(key, c);
      }
      n += c;
    }
    return n;
  }
}

const nodeText = (n: Node): string => `${n.output}${n.input === undefined ? '' : JSON.stringify(n.input)}`;

/**
 * Runs the tool catalogue benchmark on the corpus (`quick`: an even sample of 20 tau-bench sessions and all others).
 *
 * @param opts - `quick` for a sample
 * @returns the figures; see {@link ToolsBenchResult}
 * @example
 * ```ts
 * const r = await runToolsBench({ quick: true });
 * r.contenders.find((c) => c.name === 'view')?.toolCostOverFull;
 * ```
 */
export async function runToolsBench(opts: { readonly quick?: boolean; readonly corpusDir?: string } = {}): Promise<ToolsBenchResult> {
  const quick = opts.quick ?? false;
  const corpusDir = opts.corpusDir ?? new URL('../../../shared/corpus', import.meta.url).pathname;
  const corpora = await loadCorpus(corpusDir, quick ? 20 : Infinity);
  const transcripts = corpora.flatMap((c) => c.transcripts);
  const corpusNames = new Set<string>();
  for (const t of transcripts) for (const n of t.nodes) if (n.role === 'tool' && n.name !== undefined) corpusNames.add(n.name);
  const tools = syntheticCatalogue([...corpusNames].sort());
  const catalogue = createToolCatalogue(tools);
  const o = resolveToolViewOptions();
  const o3 = resolveToolViewOptions({ autoOpenGroups: 3 });
  const tok = await loadTokenizer('o200k_base');
  const count = new ToolTokens(tok);
  const fullDefs = tools.map((t) => catalogue.advertised(t.path) as AdvertisedTool);
  const fullTokens = count.of(fullDefs);
  type Name = ToolsContender['name'];
  const NAMES: readonly Name[] = ['full', 'topK', 'view', 'view3'];
  const t: Record<Name, Tally> = { full: tally(), topK: tally(), view: tally(), view3: tally() };
  let calls = 0;
  let needed = 0;
  const bill = (x: Tally, p: CachePricing, tools: number, history: number, cached: number, extra: number): void => {
    // billed in base-input units: cached prefix at the read price, the rest at the write price
    const input = tools + history;
    const cost = cached * p.readMultiplier + (input - cached) * p.writeMultiplier + extra;
    x.requestCost[p.id] = (x.requestCost[p.id] ?? 0) + cost;
    const toolsCached = Math.min(tools, cached);
    const historyRebilled = cached === 0 ? history * (p.writeMultiplier - p.readMultiplier) : 0;
    x.toolCost[p.id] = (x.toolCost[p.id] ?? 0) + toolsCached * p.readMultiplier + (tools - toolsCached) * p.writeMultiplier + historyRebilled + extra;
    if (p === PRICINGS[0]) {
      x.parts.declarations += toolsCached * p.readMultiplier + (tools - toolsCached) * p.writeMultiplier;
      x.parts.rebilledHistory += historyRebilled;
      x.parts.navigation += extra;
    }
  };
  const hit = (x: Tally, advertised: boolean, reachable: boolean, strict: boolean): void => {
    x.advertised += advertised ? 1 : 0;
    x.reachable += reachable ? 1 : 0;
    x.reachableStrict += strict ? 1 : 0;
  };
  for (const tr of transcripts) {
    const prev: Record<string, { key: string; input: number } | undefined> = {};
    const views = {
      view: { o, view: undefined as ToolView | undefined, round: { calls: [] } as { userText?: string; calls: { name: string; input?: unknown }[] } },
      view3: { o: o3, view: undefined as ToolView | undefined, round: { calls: [] } as { userText?: string; calls: { name: string; input?: unknown }[] } },
    };
    let history = 0;
    let userText = '';
    const known = new Set<string>();
    const nodes = tr.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i] as Node;
      if (n.role === 'assistant') {
        calls += 1;
        const callees: Node[] = [];
        for (let j = i + 1; j < nodes.length && (nodes[j] as Node).role === 'tool'; j++) if ((nodes[j] as Node).caller === n.id) callees.push(nodes[j] as Node);
        const wanted = callees.flatMap((c) => {
          const tool = c.name === undefined ? undefined : catalogue.byName(providerSafeName(c.name));
          return tool === undefined ? [] : [tool.path];
        });
        needed += wanted.length;
        const topK = catalogue.search(userText, TOP_K);
        const declared: Record<Name, readonly AdvertisedTool[]> = { full: fullDefs, topK: topK.map((p) => catalogue.advertised(p) as AdvertisedTool), view: [], view3: [] };
        const nav: Record<Name, number> = { full: 0, topK: 0, view: 0, view3: 0 };
        for (const path of wanted) {
          hit(t.full, true, true, true);
          hit(t.topK, topK.includes(path), topK.includes(path), topK.includes(path));
        }
        for (const k of ['view', 'view3'] as const) {
          const v = views[k];
          v.view = nextToolView(catalogue, v.view, v.round as ToolRound, v.o);
          v.round = { calls: [] };
          declared[k] = advertisedTools(catalogue, v.view, v.o);
          const shown = new Set(advertisedPaths(v.view));
          for (const path of wanted) {
            const name = path.slice(path.lastIndexOf('/') + 1);
            if (shown.has(path)) hit(t[k], true, true, true);
            else if (known.has(name)) hit(t[k], false, true, true); // a known-name call runs in the same round
            else {
              const byName = catalogue.search(name, v.o.maxBranches).includes(path);
              const byText = catalogue.search(n.output, v.o.maxBranches).includes(path);
              hit(t[k], false, byName, byText);
              if (byName || byText) {
                nav[k] += 1;
                v.round.calls.push({ name: OPEN_TOOLS, input: { search: byName ? name.replace(/_/g, ' ') : n.output.slice(0, 200) } });
              }
            }
          }
        }
        for (const k of NAMES) {
          const x = t[k];
          const tokens = k === 'full' ? fullTokens : count.of(declared[k]);
          x.tokens.push(tokens);
          const key = k === 'full' ? 'full' : declared[k].map((d) => `${d.name}:${d.description ?? ''}`).join('|');
          // Anthropic also declares every tool the history used that the request does not (render adds a stub
          // for each, after the others): a first call by name changes its tools too
          const names = new Set(declared[k].map((d) => d.name));
          const stubs = k === 'full' ? '' : [...known].filter((name) => !names.has(name)).join(',');
          x.nav += nav[k];
          for (const p of PRICINGS) {
            const pk = p.mode === 'breakpoints' ? `${key}#${stubs}` : key;
            const before = prev[`${k}/${p.id}`];
            const same = before !== undefined && before.key === pk;
            if (before !== undefined && !same) x.changes[p.id] = (x.changes[p.id] ?? 0) + 1;
            const cached = same ? before.input : 0;
            // a navigation round is one more call on the same prefix: read at the cache price, plus its own call and result (~60 tokens)
            const extra = nav[k] * ((tokens + history) * p.readMultiplier + 60 * p.writeMultiplier);
            bill(x, p, tokens, history, cached, extra);
            prev[`${k}/${p.id}`] = { key: pk, input: tokens + history };
          }
        }
      }
      if (n.role === 'user') {
        userText = n.output;
        for (const v of Object.values(views)) v.round.userText = n.output;
      }
      if (n.role === 'tool' && n.name !== undefined) {
        const name = providerSafeName(n.name);
        for (const v of Object.values(views)) v.round.calls.push(n.input === undefined ? { name } : { name, input: n.input });
        known.add(name);
      }
      history += Math.ceil(tok.count(nodeText(n).slice(0, 200_000)));
    }
  }
  const contenders: ToolsContender[] = NAMES.map((k) => {
    const x = t[k];
    const ratio = (pick: (y: Tally) => Record<string, number>): Record<string, number> =>
      Object.fromEntries(PRICINGS.map((p) => [p.id, round4((pick(x)[p.id] ?? 0) / (pick(t.full)[p.id] ?? 1))]));
    return {
      name: k,
      toolTokensMedian: median(x.tokens),
      toolTokensMean: Math.round(x.tokens.reduce((a, b) => a + b, 0) / Math.max(1, x.tokens.length)),
      toolTokensP95: p95(x.tokens),
      toolChanges: Object.fromEntries(PRICINGS.map((p) => [p.id, x.changes[p.id] ?? 0])),
      navigationCalls: x.nav,
      advertisedShare: round4(x.advertised / Math.max(1, needed)),
      reachableShare: round4(x.reachable / Math.max(1, needed)),
      reachableShareAssistantWords: round4(x.reachableStrict / Math.max(1, needed)),
      toolCostOverFull: ratio((y) => y.toolCost),
      requestCostOverFull: ratio((y) => y.requestCost),
      toolCostParts: {
        declarations: round4(x.parts.declarations / (t.full.toolCost[PRICINGS[0]?.id ?? ''] ?? 1)),
        rebilledHistory: round4(x.parts.rebilledHistory / (t.full.toolCost[PRICINGS[0]?.id ?? ''] ?? 1)),
        navigation: round4(x.parts.navigation / (t.full.toolCost[PRICINGS[0]?.id ?? ''] ?? 1)),
      },
    };
  });
  const v = contenders.find((c) => c.name === 'view') as ToolsContender;
  const worstCost = Math.max(...Object.values(v.toolCostOverFull));
  return {
    quick,
    catalogue: { tools: tools.length, groups: catalogue.groupCount, schemaBytes: JSON.stringify(tools).length, tokens: fullTokens, corpusTools: corpusNames.size },
    sessions: transcripts.length,
    calls,
    neededTools: needed,
    contenders,
    target: { toolCostOverFull: 0.1, reachableShare: 0.98, met: worstCost <= 0.1 && v.reachableShare >= 0.98, metWithAssistantWords: worstCost <= 0.1 && v.reachableShareAssistantWords >= 0.98 },
    notes: [
      `catalogue: ${tools.length} tools from bench/src/tools/synthetic-catalogue.ts (seed 22), the ${corpusNames.size} tool names the corpus calls placed among them by the words of their names`,
      'a call = one assistant node of a corpus session; its needed tools = the catalogue tools its tool nodes call; no ctxgit folding of the history (the same history for all three)',
      `topK = the ${TOP_K} best word matches of the latest user message; view = nextToolView with the defaults (7 branches, 4 open groups, search after 4 rounds, autoOpen of 1 group, deferClose, deferCalledGroups); view3 = the same with autoOpenGroups 3`,
      'reachable: advertised, or called by a name seen earlier in the session (runs in the same round), or in the top 7 of one search round; the simulated model searches with the words of the tool name (reachableShare) or with its own text only (reachableShareAssistantWords)',
      'cost: billed in base-input units under each price model; a call whose tools equal the previous call\'s reads the previous request from the cache, any change re-bills the whole request at the write price (tools come first); for Anthropic the tools include a stub for every tool the history used that is not advertised, as render declares them; tool cost = the tools plus the history re-billed because they changed, plus navigation calls',
    ],
  };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await runToolsBench({ quick: process.argv.includes('--quick') });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
