import type { EvalResult } from '../eval/eval-result.js';
import type { BenchResults } from './bench-results.js';
import { evalCharts } from './eval-charts.js';
import type { Chart } from './eval-charts.js';
import { formatBudget, formatNumber, formatPercent, formatRatio } from './format.js';
import { jsonTables } from './json-tables.js';
import { topicCharts } from './topic-charts.js';
import { markdownTable } from './markdown-table.js';
import { readmeTable } from './readme-table.js';
import { budgetsOf, targetsTable } from './targets-table.js';

/** The generated docs page and the charts it links to. */
export interface BenchmarksPage {
  readonly markdown: string;
  readonly charts: readonly Chart[];
}

const TOPIC_TITLES: Readonly<Record<string, string>> = {
  commit: 'One turn (append + commit + render) on the chained corpus, against a full-copy store',
  git: 'Git object writing, against native git fast-import',
  graph: 'Graph analysis (critical chain + continuation view)',
  pipeline: 'Rule pipeline (one call)',
  render: 'Render',
  tokenize: 'Token counting',
  dag: 'DAG appends and branch views',
  viewer: 'Web viewer in Chromium: first paint and opening a commit, 10,000 calls against 100',
  checkpointers: "Against LangGraph.js's checkpointers: a turn, cold start and bytes, SqliteSaver and MemorySaver",
  'cold-start': 'Cold start in a fresh process: open, commit() with nothing new, render; objects read, against SqliteSaver.getTuple',
  storage: 'Storage: one write per turn on disk, items walked, cold start objects read, bytes against git gc',
  remote: 'Sessions through a git server: turns per second with 1, 2, 4 and 8 writers, against local-only writing',
  import: '`ctxgit import` at 1,000 and 10,000 model calls: one pack, peak RSS, objects per second against git fast-import of the same objects',
};

/** What each speed topic measures and how to read its fields (the field docs of its result type, in short). */
const TOPIC_NOTES: Readonly<Record<string, string>> = {
  'cold-start':
    'The chained corpus session grown turn by turn on disk (`appendTurn`) to 100 and 1,000 turns (10,000 in the full run); per size, fresh node processes each open the repository, open the session, call `commit()` with nothing new and `render`. `objectsRead`: objects read from storage (issue 17: O(live items)); `wallMs`/`cpuMs`: those three steps after the modules are imported (`importMs` apart; under tsx it includes transpiling); `ratio`: ctxgit wall over a new SQLite connection + `SqliteSaver.getTuple` of the same messages in the same fresh process (asked: ≤ 0.2 at 10,000). The tokenizer is not built on this path (it loads when a turn runs the rules).',
  storage:
    'The chained corpus session on disk, one `appendTurn` per turn (the turn\'s nodes and its commit in one write) plus `render`, after importing the first N calls. `turn*Ms`: the turn until `appendTurn` and `render` resolve; the roll-up of small packs its write starts runs in the background (in a backend, during the model call) and is timed apart, awaited with `repo.settled()` before the next turn: `maintenanceMeanMs` per turn, `maintenanceMaxMs`, and `turnWithMaintenanceP99Ms` (turn and roll-up back to back). `itemsWalked*`: live items the turn\'s rules and tree writes touched (flat with session length: folded originals live under their summary); `foldTurnOverMedian`: the slowest fold turn over the median turn (issue 17 asks ≤ 3), from the run of the median of three (a fresh repository each; the same turns fold in each, their times vary), `foldTurnOverMedianRuns` each run\'s; `foldTurnGcMs`: garbage-collection pauses inside that slowest fold turn (V8\'s `gc` performance entries); `coldStart*`: a new repository object, `openSession`, `commit()` with nothing new and `render`, with the objects read from storage; `repoOverGitGc`: the repository as automatic maintenance left it over `git gc` of a copy (asked ≤ 1.5).',
  import:
    "The chained corpus session of N model calls imported as `ctxgit import` does it, each size in a fresh node process: replayed into a scratch repository on disk without fsync (a commit before every model call: the rules run on every call; a call's entries and its commit are one write; the objects held in memory and written as one pack, deltas searched, every 16 MiB), packed into one pack (the scratch packs' entries copied), written into a new repository on disk (fsync on) as that pack and the session's refs. `peakRssMb`: the process's peak resident set when the import is done (runtime and modules included); `packOverRepack`: the pack over what `git repack -a -d -f` (every delta searched again; plain `git gc` keeps the deltas it finds) then makes of the imported repository; `rssRatio`: the largest size's over the smallest's (issue 17 asks ≤ 2 for 10,000 against 1,000). `fastImportMs`: `git fast-import` of the same objects (the imported repository's `git fast-export --all`, produced untimed) into a new bare repository; `fastImportSame`: it wrote as many objects and the same refs at the same commits; `objectsPerSecondOverFastImport`: our end-to-end objects per second (replay + pack + write) over fast-import's (issue 17 asks ≥ 0.5). fast-import takes the objects ready-made; ours are computed from the transcript on the way.",
  checkpointers:
    "One chained corpus session grown turn by turn through ctxgit (`appendTurn` + `render`) on disk (fsync on, the default), on disk with fsync off (`ctxgitDiskNoFsync`, `diskNoFsyncOverSqlite`: survives a crash of the process, not a power loss — SqliteSaver's defaults' class) and on memfs, against `SqliteSaver.put` (`@langchain/langgraph-checkpoint-sqlite` 1.0.4 with its defaults: WAL, synchronous NORMAL, no fsync per commit) and `MemorySaver.put` (`@langchain/langgraph-checkpoint` 1.2.2), one put per turn holding the message list, alternating turn by turn: ctxgit in the bench process, the savers in a node process of their own, each put timed there while the bench waits (a put of thousands of messages leaves megabytes of garbage, which a shared heap collected during the other contender's timed step). A saver thread is seeded with the state at turn N by one put. `diskOverSqlite` and `memfsOverMemory` divide medians (issue 17 asks ≤ 1.0 at 100 turns, disk ≤ 0.1 at 5,000). `coldStart`: a new repository object + `openSession` + `commit()` + `render` against a new SQLite connection + `getTuple` (asked: ≤ 0.2 at 10,000). `bytes`: the repository as automatic maintenance left it against the SQLite file after every turn's put (asked: ≤ 0.05 at 1,000). `ctxgitSaverPut` is ctxgit's own LangGraph checkpointer (`CtxgitSaver.put` of the LangChain messages, disk, fsync on: what a LangGraph user plugs in, its messages mirrored into a session), grown put by put in a pass after the one above (its puts between those turns would weigh on their timings), and `saverOverSqlite` divides it by `SqliteSaver.put` of the same checkpoints, timed alternating with it (LangChain messages are heavier to serialize than the plain objects of `sqlitePut`). The bench builds better-sqlite3 from source once (the workspace does not run its install script).",
  viewer:
    'The viewer of `@ctxgit/viewer` over sessions of 100 and 10,000 model calls (the chained corpus, a 32,000-token window; a commit before every call, one `Session.appendTurn` each, except that the 10,000-call session imports its first 9,800 calls as one transcript and commits them once, then commits before each of the last 200: its DAG and latest commit hold all 10,000 calls, its timeline 201 commits) on memfs or on disk, served on loopback and opened in Debian\'s Chromium through playwright-core, each run in a fresh browser context, sizes alternating. `sessionPage`: navigation until the timeline rows and the occupancy ring are painted; `firstContentfulPaint`: the browser\'s own; `dag`: the DAG tab until its window of 40 nodes is drawn; `openCommit`: a click on the newest commit until its items are painted. `ratioLargestOver100` ≈ 1: the pages do not grow with the session (the API pages the timeline and windows the DAG).',
  remote:
    'Writers, each with its own local repository, append a question, commit, append the answer and `sync` with one server (git\'s own `git http-backend` behind a node:http bridge on 127.0.0.1), on separate sessions and on one shared session; against the same writers writing the same turns locally only, the contenders alternating in one run. `remoteOverLocal` is remote turns per second over local ones; `conflictsPerTurn`: typed conflicts met (each resolved by `sync`) per acknowledged turn; `turnMedianMs`/`turnP95Ms`: one acknowledged turn. Each writer gives its nodes ids of its own, so a re-applied turn keeps them.',
  dag: 'One `appendNode` and one `branchView` of HEAD on in-memory (`MemoryNodeStore`) sessions of 100, 1,000 and 10,000 nodes, medians and p95 after warm-up. `append10kOver100` ≈ 1: an append does not grow with the nodes before it. `viewPerDepth…` divides a branch view by the depth of HEAD\'s chain (≈ 1: a view costs its depth, not the session). The `…Min…` figures use the fastest run, less sensitive to other load on the machine.',
  tokenize:
    'Counting every corpus text with `@ctxgit/tokenize`, js-tiktoken\'s own encoder, gpt-tokenizer and the tiktoken WASM package, for `o200k_base` and `cl100k_base`. Cold: a fresh process that imports the library, loads the ranks and counts the corpus once (median of `runs.cold`). Warm: MB/s of one pass over the corpus after a warm-up pass (median of `runs.warm`; `warmP95MBps` is the slowest passes). `countsEqual`: every contender gave the WASM package\'s count for every text, and the same totals cold and warm. `spaces20kMs`: one run of 20,000 spaces, a single long BPE piece (skipped for js-tiktoken, which takes over 30 s). `memo`: the cost of a hit in `createMemoTokenizer` (texts up to 1,024 code units are keyed by themselves, longer ones by SHA-1). `warmRatioVsOurs` > 1 is faster than ours.',
  graph:
    '`analyzeSpan` of `@ctxgit/rules` (dependency graph, critical chain, supersession, failures and the continuation view under a 1,400-byte brief) on synthetic linear agent chains of 21 … 50,001 messages whose tool outputs the next step reuses. Wall and CPU medians of one analysis, a full garbage collection before each sample; small chains are timed in batches (`batch`). `zigMs` is the published Zig implementation\'s time at the sizes it reports (quoted in the issue that specified the analysis; not re-run here, so it is from another machine). `growthVsPrevious` and `growth.normalized` near 1 mean linear growth; quadratic would follow the size ratio.',
  pipeline:
    'One `runPipeline` call (the user, assistant and tool nodes of one agent turn) on sessions of 100, 1,000 and 10,000 turns. `steady`: a budget far above the session, epochs off, so aging and idle clearing run on every call; `folding`: a 32,000-token history budget with the default band, so folds happen every few turns (up to 1,000 turns). `ratioLargestOver100` ≈ 1: a call does not grow with the session. `setupMs` builds the prefix and is not part of the figures.',
  render: '`render` of synthetic commits of 100, 1,000 and 10,000 items for every provider: median and p95 per render, cost per item and the size of the request in bytes. `linearity` divides the per-item cost at 10,000 items by that at 1,000 and at 100 (≈ 1 is linear).',
  git:
    'The objects of a typical session (item blobs under sharded trees, a metadata blob and one commit per turn) written with ctxgit\'s git primitives on memfs, on disk and on disk with fsync (up to 1,000 turns), each turn one batch (`inBatch`: one pack per turn, rolled up with delta search by automatic maintenance, as a session writes its turns), and the same objects streamed into native `git fast-import` in a fresh bare repository in the same run; both must end on the same commit id (`sameCommit`), and `objects` is counted in fast-import\'s repository. `ratios` divide ours (disk, no fsync) by native: speed below 1 is slower; `diskTurnOverNative` compares our median turn with fast-import\'s mean; `bytesOverNative` compares our packs with fast-import\'s. `lateOverEarly`: the median of the last 100 turns over the first 100 (≈ 1: a turn does not grow with the session).',
  commit:
    'The shared corpus chained into one session: every transcript\'s branch view, each continuing the previous one (system prompts after the first dropped), cycled with new node ids past one pass. A turn is one model call: append the messages since the last call, `commit()`, `render` it for OpenAI Chat Completions, append the reply. Timed at turn 100, 1,000 and 10,000 (the prefix is imported and committed untimed, then 3 warm-up turns), in three rounds that each measure every row, the sizes interleaved; a row is its round of median `turnMedianMs`, `turnMedianMsRounds` the three. `bytesPerTurn` and `objectsPerTurn`: growth of the repository per turn, DAG included. `fullCopy…`: what a store that saves a serialized copy of the whole item list per snapshot (the way checkpoint stores that copy state do) writes for the same turn, raw and deflated; `bytesOverFullCopy` is ours over the deflated copy. `turnRatioLargestOver100` ≈ 1 would mean a turn costs the same at 10,000 turns as at 100. The session has a 32,000-token window (openai:gpt-4o, whose own is 128,000, so that the 150 timed turns reach the fold band) and the default rules: the first commit folds the imported prefix (untimed) and later folds keep the request (`requestBytes`) under the window; `foldTurns` counts the timed turns whose commit folded, and `turnMaxMs` is the slowest turn, usually one of them. `appendCommit…` is the turn without the render. `bytesRatioLargestOver100` against `fullCopyBytesRatioLargestOver100` shows which store grows with the session.',
};

const yes = (b: boolean): string => (b ? 'yes' : 'no');

function policyRows(result: EvalResult, corpus: string, budget: number): string[][] {
  const rows: string[][] = [];
  for (const p of result.policies) {
    const s = result.summaries.find((x) => x.policy === p.id && x.corpus === corpus && x.budget === budget);
    if (s === undefined) continue;
    rows.push([
      p.label,
      formatNumber(s.inputTokens.meanPerCall),
      formatNumber(s.inputTokens.p95),
      formatRatio(s.ratioToFull.inputTokens),
      ...result.pricings.map((pr) => formatRatio(s.ratioToFull.cost[pr.id] ?? 0)),
      formatPercent(s.cachedPrefixShare.tokens),
      formatPercent(s.dependencyRecall.share),
      s.identifierRecall === undefined ? '–' : formatPercent(s.identifierRecall.share),
      `${s.budgetViolations.count} (${formatPercent(s.budgetViolations.share)})`,
      String(s.refusals.count),
      String(s.invalidRequests ?? 0),
      formatNumber(s.prefixBreaks ?? 0),
      formatNumber(s.rewrittenTokens ?? 0),
      yes(s.latestUser.alwaysPresent),
      yes(s.system.alwaysPresent),
    ]);
  }
  return rows;
}

function policyHeader(result: EvalResult): string[] {
  return [
    'policy',
    'tokens / call',
    'p95',
    'tokens vs full',
    ...result.pricings.map((p) => `cost vs full (${p.id})`),
    'cached prefix',
    'dependency recall',
    'identifier-shaped recall',
    'over budget',
    'refused',
    'invalid',
    'prefix breaks',
    'tokens rewritten',
    'latest user always',
    'system always',
  ];
}

function costRows(result: EvalResult, budget: number): string[][] {
  return result.policies.flatMap((p) => {
    const s = result.summaries.find((x) => x.policy === p.id && x.corpus === 'all' && x.budget === budget);
    if (s === undefined) return [];
    return [
      [
        p.label,
        ...result.pricings.flatMap((pr) => {
          const c = s.cost[pr.id];
          return c === undefined ? ['', ''] : [`$${c.usd.toFixed(4)}`, `${formatNumber(c.cacheRead)} / ${formatNumber(c.cacheWrite)} / ${formatNumber(c.uncached)}`];
        }),
      ],
    ];
  });
}

function evaluationSection(result: EvalResult, charts: readonly Chart[]): string {
  const out: string[] = [];
  const reasons = (r: Readonly<Record<string, number>> | undefined): string =>
    r === undefined || Object.keys(r).length === 0 ? '' : ` (${Object.entries(r).map(([k, n]) => `${k}: ${n}`).join(', ')})`;
  const corpusRows = result.corpora.map((c) => [c.name, String(c.conversations), String(c.replayed), formatNumber(c.calls), yes(c.timestamps), `${c.skipped}${reasons(c.skippedReasons)}`]);
  out.push(
    '## What the context costs and keeps',
    '',
    `Every corpus transcript is imported with \`@ctxgit/dag\`'s importers into an in-memory DAG and linearized as its branch view; then it is replayed call by call: for each assistant node, the request is what each policy builds from every node before it, under each budget (${result.budgets.map(formatBudget).join(', ')} tokens for the whole request; each corpus is also chained into one long session replayed at ${(result.longBudgets ?? []).map(formatBudget).join(', ')}). The policies all see the same calls, in one run. A request's tokens are what the provider receives: the body rendered by \`@ctxgit/render\` as OpenAI Chat Completions, counted by \`countRequest\` of \`@ctxgit/tokenize\` with exact \`${result.encoding}\` counts (message and tool-call wrappers, reply priming); the price model counts each item's text plus the same wrappers. The baselines fit their budget by that same count of the rendered body (their token meter renders and counts each candidate request), so every policy is held to the budget it is scored against. A quick run replays an even sample of each corpus; the full run replays every conversation.`,
    '',
    markdownTable(['corpus', 'conversations', 'replayed', 'calls', 'timestamps', 'skipped by the importer'], corpusRows),
    '',
    'A call is one assistant node with history before it. "Skipped" is what the importers report leaving out on purpose (e.g. the SWE-agent `trajectory` steps that repeat its `history`, Claude Code `summary` lines, the malformed lines of the edge-case file).',
    '',
    '### Policies',
    '',
    markdownTable(['policy', 'what it does'], result.policies.map((p) => [p.label, p.description])),
    '',
  );
  out.push(
    '### ctxgit against the cheapest baseline that stays under budget',
    '',
    'For every corpus and budget (and each corpus chained into one long session): ctxgit\'s billed cost divided by that of the cheapest policy other than ctxgit that sent no request over the budget (masking included; "none" when every baseline went over), under each price model (each from ctxgit\'s run at that model\'s cache prices, as a session takes its model\'s); its dependency recall, over all reused identifiers and over those shaped like identifiers, in its run at the first model\'s prices, and the lowest recall of its runs at each model\'s prices; requests over budget, latest user turn missing, invalid and refused. "floor" divides the least any policy can be billed for the same calls by the same baseline\'s bill: a policy that sends on every call the system items, the latest user turn and the newest round (what was appended since the previous call) whole pays at least the system items and a user turn sent before at the cache-read price, the newest round as a cache write (the base price under OpenAI\'s automatic caching, or under the cacheable minimum) and the request\'s overhead (`bench/src/eval/cost-floor.ts`). It assumes no recall: a policy at the floor forgets everything but the newest round. A target below the floor cannot be met by any such policy.',
    '',
    targetsTable(result),
    '',
  );
  for (const budget of result.budgets) {
    out.push(`### All corpora, budget ${formatBudget(budget)} tokens`, '', markdownTable(policyHeader(result), policyRows(result, 'all', budget)), '');
  }
  out.push('### Charts (all corpora)', '');
  for (const c of charts) out.push(`![${c.title}](benchmarks/${c.file})`, '');
  out.push('### Per corpus', '');
  for (const corpus of result.corpora) {
    for (const budget of budgetsOf(result, corpus.name)) {
      out.push(`#### ${corpus.name}, budget ${formatBudget(budget)}`, '', markdownTable(policyHeader(result), policyRows(result, corpus.name, budget)), '');
    }
  }
  out.push('### Billed cost in dollars (all corpora)', '');
  for (const budget of result.budgets) {
    out.push(
      `#### Budget ${formatBudget(budget)}: USD, and tokens read / written / uncached`,
      '',
      markdownTable(['policy', ...result.pricings.flatMap((p) => [p.id, 'read / write / uncached'])], costRows(result, budget)),
      '',
    );
  }
  return out.join('\n');
}

function pricingSection(result: EvalResult): string {
  const rows = result.pricings.map((p) => [
    p.id,
    p.mode,
    `$${p.usdPerMTok}`,
    `${p.writeMultiplier}x`,
    `${p.readMultiplier}x`,
    `${p.ttlMs / 60000} min`,
    formatNumber(p.minCacheableTokens),
    String(p.incrementTokens),
  ]);
  return [
    '## The price model',
    '',
    'Every request is billed as three parts: tokens read from the cache, tokens written to it, and uncached input, each at a multiple of the base input price. Output tokens are the same for every policy (the transcripts are replayed, not regenerated) and are left out.',
    '',
    markdownTable(['model', 'cache', 'base input / MTok', 'write', 'read', 'lifetime', 'minimum prefix', 'hit step'], rows),
    '',
    '- **Anthropic (`breakpoints`)**: a prefix is cached only where a `cache_control` breakpoint ends it. Every request here places two, at the end of the system items and at the end of the request (the common agent setup). A request reads the longest still-alive cached prefix at any earlier breakpoint; the tokens from there to its last breakpoint are billed as a cache write (1.25x), the rest is uncached. Prefixes shorter than 1,024 tokens are never cached.',
    '- **OpenAI (`automatic`)**: every prefix of 1,024 tokens or more is cached for free; a hit is the longest prefix seen before, rounded down to 1,024 + 128k tokens, billed at the cached-input price.',
    '- **Lifetime**: 5 minutes, refreshed on every hit (Anthropic documents 5 minutes; OpenAI documents 5–10 minutes of inactivity, so 5 is the conservative end). Transcripts without timestamps (tau-bench, SWE-agent) are taken as back-to-back calls, so nothing expires; Claude Code sessions carry timestamps and are billed with expiry.',
    '- Prefix identity is decided per item: two requests share a prefix up to the first item whose rendered content differs. A provider also matches the first tokens of that item, so real hits can be a little longer.',
    '',
    'Sources (the providers\' published pages; prices change, check them before reusing the figures):',
    '',
    ...[...new Set(result.pricings.flatMap((p) => p.sources))].map((s) => `- ${s}`),
    '- Anthropic context editing (`clear_tool_uses_20250919`): https://docs.claude.com/en/docs/build-with-claude/context-editing — `trigger` (input tokens, default 100,000), `keep` (tool uses, default 3), `clear_at_least` (clearing is skipped unless it frees that many tokens), `exclude_tools`, `clear_tool_inputs` (default false); applied server-side to the full history of each request; clearing invalidates the cached prefix from the first cleared result. The docs do not give the exact placeholder text; this page uses `[cleared]`, the placeholder of LangChain\'s `ClearToolUsesEdit` (https://reference.langchain.com/python/langchain/agents/middleware/context_editing/ClearToolUsesEdit), which mirrors the strategy. Here the trigger is the budget, `keep` 3, `clear_at_least` 0 (and, for the second clearing policy, a quarter of the budget), no excluded tools, inputs kept. Observation masking follows Lindenbauer et al., "The Complexity Trap" (2025): every observation but the last N is replaced with a placeholder on every call.',
    '',
  ].join('\n');
}

const METRICS = [
  '## What each metric means',
  '',
  '- **tokens / call, p95**: input tokens of one request (mean and 95th percentile, nearest rank) — what the policy sends.',
  '- **tokens vs full**: total input tokens over all calls, divided by the full history\'s total for the same calls.',
  '- **cost vs full**: billed input cost under the price model, divided by the full history\'s cost. The full history is itself cached, so this is not the token ratio: a policy that rewrites early messages can send fewer tokens and still pay more.',
  '- **cached prefix**: of all tokens sent, the share that repeats, byte for byte and from the start, the previous request of the same conversation — what a positional provider cache can reuse. The JSON also holds the same share in bytes of the request bodies rendered by `@ctxgit/render` as OpenAI Chat Completions (`cachedPrefixShare.bytes`).',
  '- **dependency recall**: an assistant step *reuses* a distinctive identifier (5–64 characters, containing a letter, path and identifier punctuation `_ . / - :` kept, common English words removed, case-insensitive) when it writes one that appears in an earlier tool result and in no earlier system or user text. Recall is the share of those reuses still visible (as an identifier of some item) in the request that produced the step, summed over all steps. In a long session chained from several conversations, a step\'s reuses are looked for in its own conversation only: the agent that wrote it never saw the others, so a word it shares with another conversation\'s tool result is a coincidence, not a dependency.',
  '- **identifier-shaped recall**: the same over the reuses the step writes shaped like an identifier — holding a digit, `_ . / :`, an inner `-` or an inner capital (`mia_li_3668`, `file.py`, `getUser`) — leaving out plain words the filter of common words lets through (`installing`, `previously`, `yielded`), which a brief is not meant to keep.',
  '- **over budget**: requests whose input tokens exceed the budget. The full history\'s count shows how much pressure each budget puts on the transcripts.',
  '- **refused**: calls where the policy gave up (ctxgit\'s pipeline throws `RulesOverBudgetError`, naming the numbers, when even the latest round with every cut cannot fit the window, e.g. when the system prompt alone nearly fills it). Nothing is sent: the call counts no tokens, and the identifiers its step reuses count as missed; the next call starts from the previous items plus the new messages.',
  '- **invalid**: requests `@ctxgit/render` could not turn into a valid provider body.',
  '- **prefix breaks / tokens rewritten**: requests that rewrote or dropped part of the previous request of their conversation, and the tokens of the previous request after the prefix the next one repeats (what the cache loses).',
  '- **latest user always / system always**: whether, in every request, the latest user turn and every system item were present, unchanged and in full.',
  '',
].join('\n');

const CAVEATS = [
  '## What the numbers do not show',
  '',
  '- **Answer quality.** The transcripts are replayed, not re-run: no model saw these requests, so nothing here says whether a policy\'s requests would lead to the same (or better) answers. Dependency recall is a proxy for "the step could still see what it used", not a measure of task success; it counts literal identifiers and misses paraphrased or numeric dependencies.',
  '- **Tool schemas and images.** The transcripts carry no tool definitions and no images; both would add the same fixed prefix to every policy.',
  '- **Output tokens and latency.** Output is the same for every policy and left out of the cost; no latency is modelled.',
  '- **Cache behaviour in production.** The price model is positional and item-granular, with two breakpoints per request and a 5-minute lifetime; real caches also evict under load and may match partial items. Transcripts without timestamps are billed as if every call followed the previous one immediately.',
  '- **Token counts for Anthropic.** Anthropic publishes no tokenizer; every policy is counted with `o200k_base` for both price models, so the Anthropic figures are in o200k tokens (the ratios between policies are what carries over).',
  '- **ctxgit\'s budget.** The ctxgit policies run in a request frame (`request: { window: budget, overhead: messageOverhead(\'openai-chat\') }`): the rules count every item with its wrappers and give the history what the window leaves after the system items; their fold band (fold at the upper mark, down to the lower mark, emergency mark) is the package default, so they aim below the budget by design.',
  '- **Small corpus.** The corpus is small (tau-bench airline, a set of SWE-agent trajectories, a few Claude Code sessions) and its conversations are short: at the larger budgets few policies act, and the long sessions are the corpus\'s own conversations chained (cycled with new ids when a corpus holds fewer calls), not real long sessions.',
  '- **Modelled comparators and synthetic inputs.** The full-copy store is not a real checkpoint library: its bytes are the JSON of the item list per snapshot, raw and deflated; real savers add their own metadata, and some save only the channels that changed. The dag, git, graph, pipeline and render topics run on synthetic sessions shaped like agent sessions; the one-turn figures and the evaluation run on the corpus.',
  '- **Timings** are medians of several runs on the machine in the stamp; compare ratios measured in the same run, not absolute figures across machines.',
  '',
].join('\n');

/**
 * The whole `docs/benchmarks.md` page and its charts, generated from the results JSON alone.
 * @example
 * ```ts
 * const { markdown, charts } = benchmarksPage(JSON.parse(await readFile('bench/results/latest.json', 'utf8')));
 * ```
 */
export function benchmarksPage(results: BenchResults): BenchmarksPage {
  const s = results.stamp;
  const perTopic = topicCharts(results);
  const evaluation = results.evaluation.ok ? evalCharts(results.evaluation.result) : [];
  const charts = [...perTopic, ...evaluation];
  const out: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (bench/src/main.ts) from bench/results/latest.json; regenerate with `node --conditions=@ctxgit/source --import tsx bench/src/report/main.ts`. Do not edit by hand. -->',
    '',
    markdownTable(
      ['commit', 'dirty', 'corpus digest (sha256)', 'corpus files', 'node', 'machine', 'load at start', 'date', 'mode', 'run time'],
      [
        [
          s.commit,
          yes(s.dirty),
          s.corpusDigest,
          String(s.corpusFiles),
          s.node,
          `${s.cpu} (${s.cores} cores, ${s.platform})`,
          (s.loadAverage ?? []).join(' / '),
          s.date,
          s.quick ? 'quick' : 'full',
          `${(s.durationMs / 1000).toFixed(1)} s`,
        ],
      ],
    ),
    '',
    `Reproduce: \`npm run bench${s.quick ? ' -- --quick' : ''}\` (writes bench/results/latest.json and this page).`,
    '',
  ];
  if (s.quick) out.push('> This page comes from a **quick** run (reduced sizes and a sample of the corpus); run `npm run bench` for the full figures.', '');
  const glance = readmeTable(results);
  if (glance !== null) out.push('## At a glance', '', glance.replace('; details in [docs/benchmarks.md](docs/benchmarks.md)', '; details below'), '');
  out.push('## Speed and scale', '');
  for (const [topic, outcome] of Object.entries(results.topics)) {
    out.push(`### ${TOPIC_TITLES[topic] ?? topic} (\`bench/src/${topic}.ts\`)`, '');
    const note = TOPIC_NOTES[topic];
    if (note !== undefined) out.push(note, '');
    const own = outcome.stamp;
    if (own !== undefined && own.commit !== s.commit) out.push(`Measured by another run than the page's: commit \`${own.commit.slice(0, 12)}\`${own.dirty ? ' (dirty)' : ''}, ${own.date}, load at start ${own.loadAverage.map((x) => x.toFixed(2)).join(' / ')}.`, '');
    if (outcome.ok) {
      out.push(`Run time ${(outcome.durationMs / 1000).toFixed(1)} s.`, '', jsonTables(outcome.result, 4), '');
      for (const c of perTopic.filter((c) => c.file.startsWith(`topic-${topic}-`) || c.file === `topic-${topic}.svg`)) out.push(`![${c.title}](benchmarks/${c.file})`, '');
    }
    else out.push(`**Failed:** ${outcome.error}`, '');
  }
  if (results.evaluation.ok) out.push(evaluationSection(results.evaluation.result, evaluation), '', pricingSection(results.evaluation.result));
  else out.push('## What the context costs and keeps', '', `**Failed:** ${results.evaluation.error}`, '');
  out.push(METRICS, CAVEATS);
  return { markdown: `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`, charts };
}
