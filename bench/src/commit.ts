/**
 * ContextCommit engine benchmark on the shared corpus chained into one long session: one turn (append the messages
 * since the last model call, commit, render the commit for OpenAI Chat Completions, append the assistant's reply)
 * at turn 100, 1,000 and 10,000, in memory (`memfs` in the figures: `openRepo({ memory: true })`) and on disk (no fsync,
 * and with fsync for the smallest size). The session prefix is imported in one DAG write and committed once (not
 * timed); then `measured` turns are timed one by one, the sizes of one storage taking a turn each in turn.
 * Reported: median and p95 of a turn, of its commit alone and of its render, repository bytes and objects (loose
 * and packed) written per turn against what a store that saves a full copy of the items per snapshot writes, and the ratio of
 * the median turn at the largest size to the smallest. Object writing against native `git fast-import` is
 * compared in bench/src/git.ts.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/commit.ts [--quick]`
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import { openRepo } from '@ctxgit/commit';
import type { ContextCommit, FsLike, Repo } from '@ctxgit/commit';
import type { BatchNodeInput, Transcript, TranscriptEntry } from '@ctxgit/dag';
import { entryInput } from '@ctxgit/dag';
import { render } from '@ctxgit/render';
import { loadCorpus } from './eval/load-corpus.js';
import { fileSizes, totalBytes } from './file-sizes.js';
import { median, medianRun, p95 } from './stats.js';

/** Where the repository lives. */
export type CommitBenchFs = 'memfs' | 'disk' | 'disk+fsync';

/** Figures for one session length and storage. Times in milliseconds. */
export interface CommitBenchRow {
  readonly turns: number;
  readonly fs: CommitBenchFs;
  /** Turns timed on top of the prefix. */
  readonly measured: number;
  /** Items in the last commit. */
  readonly items: number;
  /** One turn: append the messages since the last call + commit + render + append the assistant's reply. */
  readonly turnMedianMs: number;
  /**
   * `turnMedianMs` of each round of this row, ascending (a full run measures every row three times, the sizes
   * interleaved, and reports the round with the median of these: one round's median moves ±30 % with the machine).
   */
  readonly turnMedianMsRounds: readonly number[];
  readonly turnP95Ms: number;
  /** The slowest turn (a fold turn, when there is one). */
  readonly turnMaxMs: number;
  /** The commit alone (ensureLatestCommit: walk, pipeline, objects, refs). */
  readonly commitMedianMs: number;
  readonly commitP95Ms: number;
  /** Rendering the commit as an OpenAI Chat Completions request: linear in the request, which the window bounds. */
  readonly renderMedianMs: number;
  /** The turn without its render: append + commit + append. */
  readonly appendCommitMedianMs: number;
  readonly appendCommitP95Ms: number;
  /** Measured turns whose commit folded items (the rest only appended, aged or cleared). */
  readonly foldTurns: number;
  /** JSON bytes of the last request rendered. */
  readonly requestBytes: number;
  /** Growth of the repository's files (objects and refs) per measured turn, DAG included. */
  readonly bytesPerTurn: number;
  /** New objects (loose and packed) per measured turn, DAG included. */
  readonly objectsPerTurn: number;
  /** A full-copy store (one serialized item list per snapshot, the way checkpoint stores that copy state save): JSON bytes of the last commit's items. */
  readonly fullCopyBytesPerTurn: number;
  /** The same, deflated at zlib level 1 (as git's loose objects here). */
  readonly fullCopyDeflatedBytesPerTurn: number;
  /** bytesPerTurn / fullCopyDeflatedBytesPerTurn: below 1, the git layout writes less than a compressed full copy. */
  readonly bytesOverFullCopy: number;
  /** Importing and committing the prefix (not part of the turn figures). */
  readonly setupMs: number;
}

/** Result of {@link runCommitBench}. */
export interface CommitBenchResult {
  readonly quick: boolean;
  /** The chained corpus: model calls in one pass over it, and its entries (messages) up to the last call measured. */
  readonly corpus: { readonly callsPerPass: number; readonly entries: number };
  readonly rows: readonly CommitBenchRow[];
  /**
   * Median turn at the largest size over the median turn at 100 turns, per storage, in each round (the two measured at
   * the same time), the median of the rounds (≈1: a turn does not grow with the session).
   */
  readonly turnRatioLargestOver100: { readonly [fs: string]: number };
  /** Same without the render (whose cost follows the request's size). */
  readonly appendCommitRatioLargestOver100: { readonly [fs: string]: number };
  /** Same for bytes written per turn. */
  readonly bytesRatioLargestOver100: { readonly [fs: string]: number };
  /** Same for the deflated full copy (it grows with the session). */
  readonly fullCopyBytesRatioLargestOver100: number;
  readonly notes: readonly string[];
}

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));

/** The shared corpus as one long session: the entries, and the index of every assistant entry (one model call each). */
interface ChainedCorpus {
  readonly entries: readonly TranscriptEntry[];
  readonly calls: readonly number[];
  /** Model calls in one pass over the corpus (longer sessions cycle through it again, with new node ids). */
  readonly callsPerPass: number;
}

/**
 * Every corpus transcript's branch view, in corpus order, each one continuing the previous one's last message;
 * system messages after the first transcript's are dropped (a session has one system prompt). Cycles through
 * the corpus until it holds `calls` model calls.
 */
export async function chainCorpus(calls: number): Promise<ChainedCorpus> {
  const pass: TranscriptEntry[] = [];
  let last: number | undefined;
  for (const corpus of await loadCorpus(CORPUS, Infinity)) {
    for (const t of corpus.transcripts) {
      const index = new Map<string, number>();
      for (const n of t.nodes) {
        if (n.role === 'system' && pass.length > 0) continue;
        const base = { role: n.role, output: n.output, ...(n.name === undefined ? {} : { name: n.name }), ...(n.input === undefined ? {} : { input: n.input }), ...(n.metadata === undefined ? {} : { metadata: n.metadata }) };
        if (n.role === 'tool') {
          const caller = n.caller === undefined ? undefined : index.get(n.caller);
          if (caller === undefined) throw new Error(`${t.id}: tool node ${n.id} has no assistant caller in its branch view`);
          pass.push({ ...base, caller });
        } else {
          pass.push({ ...base, ...(last === undefined ? {} : { predecessor: last }) });
          last = pass.length - 1;
        }
        index.set(n.id, pass.length - 1);
      }
    }
  }
  // A model call is an assistant entry after a user or tool one: consecutive assistant entries (a Claude Code reply
  // written as several lines) are one call, and a turn never ends on an assistant entry.
  const passCalls = pass.flatMap((e, i) => (e.role === 'assistant' && i > 0 && pass[i - 1]?.role !== 'assistant' ? [i] : []));
  if (passCalls.length === 0) throw new Error('the corpus has no model call');
  const entries: TranscriptEntry[] = [];
  const all: number[] = [];
  let tail: number | undefined; // the last non-tool entry so far
  while (all.length < calls) {
    const offset = entries.length;
    for (const e of pass) {
      const predecessor = e.predecessor !== undefined ? e.predecessor + offset : e.role === 'tool' ? undefined : tail;
      const caller = e.caller === undefined ? undefined : e.caller + offset;
      entries.push({ role: e.role, output: e.output, ...(e.name === undefined ? {} : { name: e.name }), ...(e.input === undefined ? {} : { input: e.input }), ...(e.metadata === undefined ? {} : { metadata: e.metadata }), ...(predecessor === undefined ? {} : { predecessor }), ...(caller === undefined ? {} : { caller }) });
      if (e.role !== 'tool') tail = entries.length - 1;
    }
    all.push(...passCalls.map((i) => i + offset));
  }
  return { entries, calls: all, callsPerPass: passCalls.length };
}

/** The transcript entry → node input mapping, `@ctxgit/dag`'s (the storage bench replays with it too). */
export { entryInput };

/**
 * Feeds a chain to a session turn by turn, after `prefix(chain, n)` was imported: {@link TurnFeeder.next} gives the
 * entries up to a model call as one batch (callers mapped to the node ids earlier batches got), `record` takes the
 * nodes the append returned.
 */
export class TurnFeeder {
  readonly #chain: ChainedCorpus;
  readonly #ids: Map<number, string>;
  #next: number;

  constructor(chain: ChainedCorpus, head: number, headId: string) {
    this.#chain = chain;
    this.#ids = new Map([[head, headId]]);
    this.#next = head + 1;
  }

  /** The node inputs of the entries before chain index `call` not fed yet, and how to record the ids they got. */
  next(call: number): { readonly inputs: BatchNodeInput[]; readonly record: (nodes: readonly { readonly id: string }[]) => void } {
    const inputs: BatchNodeInput[] = [];
    const at = new Map<number, number>();
    for (; this.#next < call; this.#next++) {
      const e = this.#chain.entries[this.#next] as TranscriptEntry;
      const caller = e.caller === undefined ? undefined : (at.get(e.caller) ?? this.#ids.get(e.caller));
      at.set(this.#next, inputs.length);
      inputs.push(entryInput(e, caller));
    }
    return {
      inputs,
      record: (nodes) => {
        for (const [i, k] of at) this.#ids.set(i, (nodes[k] as { id: string }).id);
      },
    };
  }
}

/** The first `turns` model calls of the chain as one transcript, ending on the `turns`-th assistant entry. */
export function prefix(chain: ChainedCorpus, turns: number): Transcript {
  const head = chain.calls[turns - 1];
  if (head === undefined) throw new Error(`the chain has fewer than ${turns} calls`);
  return { format: 'openai-chat', entries: chain.entries.slice(0, head + 1), head, skipped: {}, malformed: [], stats: {}, metadata: {} };
}

/** Bytes of the repository and its objects: loose ones (a name of 38 hex digits under `objects/`) and those each pack index lists (no two packs share one once maintenance settled). */
async function repoFiles(fs: FsLike, gitdir: string): Promise<{ bytes: number; objects: number }> {
  const files = await fileSizes(fs, gitdir);
  let objects = [...files.keys()].filter((p) => p.startsWith(`${gitdir}/objects/`) && /\/[0-9a-f]{38}$/.test(p)).length;
  for (const p of files.keys()) {
    if (!/\/objects\/pack\/pack-[0-9a-f]{40}\.idx$/.test(p)) continue;
    const idx = await fs.promises.readFile(p);
    if (typeof idx !== 'string') objects += Buffer.from(idx.buffer, idx.byteOffset, idx.byteLength).readUInt32BE(8 + 255 * 4);
  }
  return { bytes: totalBytes(files), objects };
}

const WARMUP_TURNS = 3;
/** Tokens: below gpt-4o's 128,000 so that the timed turns reach the fold band (every 12 to 30 turns on this corpus). */
const WINDOW = 32_000;

/** A session of `turns` turns, warmed up, whose `measured` turns are timed one call at a time; then its row. */
interface PreparedSession {
  /** Times the next measured turn. */
  readonly step: () => Promise<void>;
  /** The row, once every measured turn is timed. */
  readonly figures: () => Promise<Omit<CommitBenchRow, 'turnMedianMsRounds'>>;
  /** Removes the repository (on disk). */
  readonly remove: () => Promise<void>;
}

async function prepare(chain: ChainedCorpus, fsKind: CommitBenchFs, turns: number, measured: number): Promise<PreparedSession> {
  let t = 1_700_000_000_000;
  const clock = (): number => (t += 1000);
  let dir: string | undefined;
  let repo: Repo;
  if (fsKind === 'memfs') repo = await openRepo({ memory: true, clock, fsync: false });
  else {
    dir = await mkdtemp(join(tmpdir(), 'ctxgit-bench-commit-'));
    repo = await openRepo({ dir: join(dir, 'ctx.git'), clock, fsync: fsKind === 'disk+fsync' });
  }
  const fs = repo.git.fs;
  const removeDir = async (): Promise<void> => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  };
  try {
    const t0 = performance.now();
    const start = prefix(chain, turns);
    const s = await repo.importSession('bench', start, { model: 'openai:gpt-4o', window: WINDOW, clock });
    await s.commit();
    const setupMs = performance.now() - t0;
    const ids = new Map<number, string>([[start.head as number, (await s.head()) as string]]);
    let next = (start.head as number) + 1;
    const append = async (i: number): Promise<void> => {
      const e = chain.entries[i] as TranscriptEntry;
      const caller = e.caller === undefined ? undefined : ids.get(e.caller);
      if (e.caller !== undefined && caller === undefined) throw new Error(`entry ${i}: caller ${e.caller} not appended`);
      const node = await s.append(entryInput(e, caller));
      ids.set(i, node.id);
    };
    // One turn: the messages since the last call, the commit, its render, then the assistant's reply.
    const turnOnce = async (call: number): Promise<{ turn: number; commit: number; render: number; commitObject: ContextCommit; request: unknown }> => {
      const a = performance.now();
      for (; next < call; next++) await append(next);
      const b = performance.now();
      const c = await s.commit();
      const e = performance.now();
      const request = render(c, { provider: 'openai-chat' });
      const r = performance.now();
      // the model call: the roll-up the commit started runs meanwhile in a backend, untimed here (the storage topic times it)
      await repo.settled();
      const m = performance.now();
      await append(call);
      next = call + 1;
      const turn = r - a + performance.now() - m;
      await repo.settled(); // a roll-up the reply's write started (one lone write in 16 does)
      return { turn, commit: e - b, render: r - e, commitObject: c, request };
    };
    const callAt = (k: number): number => {
      const call = chain.calls[k];
      if (call === undefined) throw new Error(`the chain has no call ${k}`);
      return call;
    };
    for (let k = 0; k < WARMUP_TURNS; k++) await turnOnce(callAt(turns + k));
    const before = await repoFiles(fs, repo.git.gitdir);
    const turnMs: number[] = [];
    const commitMs: number[] = [];
    const renderMs: number[] = [];
    let foldTurns = 0;
    let last: ContextCommit | undefined;
    let request: unknown;
    const step = async (): Promise<void> => {
      if (turnMs.length >= measured) throw new Error(`${fsKind} ${turns}: ${measured} turns are timed already`);
      const r = await turnOnce(callAt(turns + WARMUP_TURNS + turnMs.length));
      turnMs.push(r.turn);
      commitMs.push(r.commit);
      renderMs.push(r.render);
      if (r.commitObject.summary.folded > 0) foldTurns++;
      last = r.commitObject;
      request = r.request;
    };
    const figures = async (): Promise<Omit<CommitBenchRow, 'turnMedianMsRounds'>> => {
      const after = await repoFiles(fs, repo.git.gitdir);
      const bytesPerTurn = Math.round((after.bytes - before.bytes) / measured);
      // What a store that saves the whole item list per snapshot writes for the last one (JSON, and deflated as git does).
      const fullCopy = Buffer.from(JSON.stringify(last?.items ?? []), 'utf8');
      const fullCopyDeflated = deflateSync(fullCopy, { level: 1 }).length;
      return {
        turns,
        fs: fsKind,
        measured,
        items: last?.items.length ?? 0,
        turnMedianMs: median(turnMs),
        turnP95Ms: p95(turnMs),
        turnMaxMs: Math.max(...turnMs),
        commitMedianMs: median(commitMs),
        commitP95Ms: p95(commitMs),
        renderMedianMs: median(renderMs),
        appendCommitMedianMs: median(turnMs.map((x, k) => x - (renderMs[k] ?? 0))),
        appendCommitP95Ms: p95(turnMs.map((x, k) => x - (renderMs[k] ?? 0))),
        foldTurns,
        requestBytes: Buffer.byteLength(JSON.stringify(request ?? null), 'utf8'),
        bytesPerTurn,
        objectsPerTurn: (after.objects - before.objects) / measured,
        fullCopyBytesPerTurn: fullCopy.length,
        fullCopyDeflatedBytesPerTurn: fullCopyDeflated,
        bytesOverFullCopy: Number((bytesPerTurn / fullCopyDeflated).toFixed(4)),
        setupMs,
      };
    };
    return { step, figures, remove: removeDir };
  } catch (err) {
    await removeDir();
    throw err;
  }
}

/**
 * Rows of `fsKind` at each of `sizes`, their turns interleaved: every session is set up first, then the sessions take
 * a measured turn each in turn, so that a machine that slows down during the run weighs on every size alike and the
 * ratio of two sizes holds.
 */
async function measureInterleaved(chain: ChainedCorpus, fsKind: CommitBenchFs, sizes: readonly number[], measured: number): Promise<Omit<CommitBenchRow, 'turnMedianMsRounds'>[]> {
  const sessions: PreparedSession[] = [];
  try {
    for (const n of sizes) sessions.push(await prepare(chain, fsKind, n, measured));
    for (let k = 0; k < measured; k++) for (const s of sessions) await s.step();
    const rows: Omit<CommitBenchRow, 'turnMedianMsRounds'>[] = [];
    for (const s of sessions) rows.push(await s.figures());
    return rows;
  } finally {
    for (const s of sessions) await s.remove();
  }
}

/**
 * Runs the engine benchmark.
 *
 * @param opts - `quick`: memfs at 100 and 1,000 turns, disk at 100, 20 measured turns, no fsync row, one round; else
 *   100, 1,000 and 10,000 on memfs and disk with 150 measured turns, plus disk+fsync at 100 with 20, in three rounds
 *   (each row reported by its round of median turn)
 * @returns the figures
 * @example
 * ```ts
 * const r = await runCommitBench({ quick: true });
 * r.turnRatioLargestOver100.memfs; // ≈ 1
 * ```
 */
export async function runCommitBench(opts: { readonly quick: boolean }): Promise<CommitBenchResult> {
  const sizes = opts.quick ? [100, 1000] : [100, 1000, 10_000];
  // 150 turns reach the fold band several times after the prefix's fold.
  const measured = opts.quick ? 20 : 150;
  const rounds = opts.quick ? 1 : 3;
  const made = new Map<string, Omit<CommitBenchRow, 'turnMedianMsRounds'>[]>();
  const failures: string[] = [];
  const largest = Math.max(...sizes);
  const chain = await chainCorpus(largest + WARMUP_TURNS + measured);
  const attempt = async (fsKind: CommitBenchFs, ns: readonly number[], m: number): Promise<void> => {
    try {
      const rows = await measureInterleaved(chain, fsKind, ns, m);
      for (const row of rows) made.set(`${fsKind} ${row.turns}`, [...(made.get(`${fsKind} ${row.turns}`) ?? []), row]);
    } catch (err) {
      failures.push(`${fsKind} ${ns.join(', ')} turns failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  // Disk first: a 10,000-turn memfs repository leaves a heap whose collection would land in the next rows. A
  // throwaway run first warms the JIT and the temp directory, which would otherwise land in the first rows (and takes
  // the collection of the previous round's heap). In each round the sizes of one storage take their turns in turn
  // (measureInterleaved), so that the sizes a ratio divides are measured at the same time.
  for (let round = 0; round < rounds; round++) {
    await measureInterleaved(chain, 'disk', [100], 20);
    await attempt('disk', opts.quick ? [100] : sizes, measured);
    if (!opts.quick) await attempt('disk+fsync', [100], 20);
    await attempt('memfs', sizes, measured);
  }
  const rows: CommitBenchRow[] = [...made.values()].map((all) => {
    const { run, figures } = medianRun(all, (r) => r.turnMedianMs);
    return { ...run, turnMedianMsRounds: figures.map((ms) => Number(ms.toFixed(2))) };
  });
  // The largest size over 100 turns in each round (measured at the same time), the median of the rounds.
  const ratio = (fsKind: CommitBenchFs, f: (r: Omit<CommitBenchRow, 'turnMedianMsRounds'>) => number): number => {
    const large = Math.max(0, ...rows.filter((r) => r.fs === fsKind).map((r) => r.turns));
    const small = made.get(`${fsKind} 100`) ?? [];
    const big = made.get(`${fsKind} ${large}`) ?? [];
    const each = small.slice(0, big.length).flatMap((r, k) => (f(r) === 0 ? [] : [f(big[k] as Omit<CommitBenchRow, 'turnMedianMsRounds'>) / f(r)]));
    return each.length === 0 ? 0 : Number(median(each).toFixed(2));
  };
  const lastCall = chain.calls[largest + WARMUP_TURNS + measured - 1] ?? 0;
  return {
    quick: opts.quick,
    corpus: { callsPerPass: chain.callsPerPass, entries: lastCall + 1 },
    rows,
    turnRatioLargestOver100: { memfs: ratio('memfs', (r) => r.turnMedianMs), disk: ratio('disk', (r) => r.turnMedianMs) },
    appendCommitRatioLargestOver100: { memfs: ratio('memfs', (r) => r.appendCommitMedianMs), disk: ratio('disk', (r) => r.appendCommitMedianMs) },
    bytesRatioLargestOver100: { memfs: ratio('memfs', (r) => r.bytesPerTurn), disk: ratio('disk', (r) => r.bytesPerTurn) },
    fullCopyBytesRatioLargestOver100: ratio('memfs', (r) => r.fullCopyDeflatedBytesPerTurn),
    notes: [
      'the corpus (tau-bench, SWE-agent, Claude Code branch views) chained into one session, cycled with new node ids past one pass; a turn = one model call: append the messages since the last call, commit, render (openai-chat), append the reply; 3 warm-up turns first',
      'a 32,000-token window (openai:gpt-4o, whose own is 128,000) with the default rules: the first commit folds the imported prefix (untimed), then folds come every 12 to 30 turns (foldTurns) and keep the request under the window; a fold writes the items it folds and the summaries it nests, never the originals of an earlier summary',
      'the sizes of one storage are set up first, then take a measured turn each in turn: a machine that slows down during the run weighs on every size alike',
      'bytes and objects include the DAG (GitNodeStore) writes; each write is one pack, rolled up by automatic maintenance (in the background, started by the commit of each turn and awaited untimed where the model call would be; a lone append leaves it to the commit); the full copy is of the items alone (no DAG), so the comparison favours it',
      ...failures,
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await runCommitBench({ quick: process.argv.includes('--quick') });
  const head = ['turns', 'fs', 'items', 'turn median ms', 'turn p95 ms', 'turn max ms', 'commit median ms', 'commit p95 ms', 'render ms', 'request B', 'fold turns', 'bytes/turn', 'objects/turn', 'full copy B', 'deflated', 'ours/copy', 'setup ms'];
  const lines = r.rows.map((x) =>
    [x.turns, x.fs, x.items, x.turnMedianMs.toFixed(2), x.turnP95Ms.toFixed(2), x.turnMaxMs.toFixed(0), x.commitMedianMs.toFixed(2), x.commitP95Ms.toFixed(2), x.renderMedianMs.toFixed(2), x.requestBytes, x.foldTurns, x.bytesPerTurn, x.objectsPerTurn.toFixed(1), x.fullCopyBytesPerTurn, x.fullCopyDeflatedBytesPerTurn, x.bytesOverFullCopy, x.setupMs.toFixed(0)].join(' | '),
  );
  process.stdout.write(`${head.join(' | ')}\n${lines.join('\n')}\n`);
  for (const note of r.notes) process.stdout.write(`note: ${note}\n`);
  process.stdout.write(`corpus: ${r.corpus.callsPerPass} calls per pass, ${r.corpus.entries} entries; turn median, largest / 100: ${JSON.stringify(r.turnRatioLargestOver100)}; bytes per turn, largest / 100: ${JSON.stringify(r.bytesRatioLargestOver100)}, full copy ${r.fullCopyBytesRatioLargestOver100}\n`);
}
