/**
 * ctxgit against LangGraph.js's checkpointers (issue 17): what a user would pick instead to keep a conversation's
 * state. One chained corpus session grows turn by turn through ctxgit (`Session.appendTurn`: a turn's nodes and its
 * commit in one write; `render` timed apart), on disk with fsync on (the default), on disk with fsync off (`fsync: false`:
 * the durability class of SqliteSaver's defaults, see below) and in memory (`memfs` in the figures: `openRepo({ memory: true })`,
 * ctxgit's own in-memory file system, `memoryFs`). At each size N the next
 * `measured` turns are timed, alternating with `SqliteSaver.put` (`@langchain/langgraph-checkpoint-sqlite`, its
 * defaults: WAL, synchronous NORMAL) and `MemorySaver.put` of the same state — one `put` per turn holding the
 * message list, as a LangGraph agent's messages channel does (plain `{ role, content }` objects, lighter than
 * serialized LangChain messages). A saver's thread is seeded with the state at turn N by one `put` (a put writes the
 * whole state, whatever came before it). The savers run in a node process of their own (bench/src/saver-process.ts),
 * each put timed there while this process waits: a put of thousands of messages leaves megabytes of garbage, which in
 * one heap was collected during ctxgit's next timed turn (and ctxgit's during theirs). Also: bytes on disk after
 * `bytesAt` turns, every turn `put` for the saver (after a WAL checkpoint) and ctxgit's repository as its automatic
 * maintenance left it; and the cold start of the
 * session at each size — a new `openRepo` + `openSession` + `commit()` with nothing new + `render`, against a new
 * connection + `SqliteSaver.getTuple` — alternating, medians. Up to {@link SAVER_TURNS} turns, ctxgit's own
 * LangGraph checkpointer too (`CtxgitSaver.put` on disk, fsync on, of the LangChain messages: what a LangGraph user
 * plugs in), in a pass of its own after those (its puts between their turns would weigh on their timings): grown put
 * by put and timed at each size alternating with `SqliteSaver.put` of the same checkpoint (`saverOverSqlite`).
 *
 * Durability classes: SqliteSaver's defaults (better-sqlite3: WAL, synchronous NORMAL) do not fsync each commit; a
 * commit survives a crash of the process, not a power loss (SQLite then stays consistent and may lose the last
 * commits). ctxgit with fsync on survives both; with fsync off, a crash of the process, not a power loss (the last
 * turns may be lost, and a ref may then name objects that never reached the disk). Compare fsync off with SqliteSaver
 * for the same class, fsync on for what ctxgit promises by default.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/checkpointers.ts [--quick] [--sizes=100,1000,10000] [--measured=N]`
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openRepo } from '@ctxgit/commit';
import type { Repo, Session } from '@ctxgit/commit';
import type { BatchNodeInput, TranscriptEntry } from '@ctxgit/dag';
import { render } from '@ctxgit/render';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { CtxgitSaver } from '../../packages/langgraph/src/index.js';
import { chainCorpus, entryInput, prefix } from './commit.js';
import { langchainMessages } from './langchain-messages.js';
import { loadBetterSqlite3 } from './native-sqlite.js';
import { SaverProcess } from './saver-process.js';
import { Thread } from './saver-thread.js';
import { median, p95, p99 } from './stats.js';

/** Per-turn figures at one session length; milliseconds. */
export interface CheckpointerTurnRow {
  readonly turns: number;
  readonly measured: number;
  /** ctxgit on disk, fsync on (the default): append + commit (`appendTurn`: the turn's nodes and its commit in one write). */
  readonly ctxgitDisk: Percentiles;
  /** The same with `fsync: false`: survives a crash of the process, not a power loss (SqliteSaver's defaults' class). */
  readonly ctxgitDiskNoFsync: Percentiles;
  /** `render` of the commit to an OpenAI Chat body, not counted above. */
  readonly renderMedianMs: number;
  readonly sqlitePut: Percentiles;
  /** ctxgit disk (fsync on) ÷ SqliteSaver put, medians. */
  readonly diskOverSqlite: number;
  /** ctxgit disk with fsync off ÷ SqliteSaver put, medians: the same durability class. */
  readonly diskNoFsyncOverSqlite: number;
  readonly ctxgitMemfs: Percentiles;
  readonly memoryPut: Percentiles;
  /** ctxgit memfs ÷ MemorySaver put, medians. */
  readonly memfsOverMemory: number;
  /** Items in the commit the last measured turn produced. */
  readonly items: number;
  /** Messages in the saver's state at the last measured turn. */
  readonly messages: number;
  /** `CtxgitSaver.put` of the LangChain messages (disk, fsync on), up to {@link SAVER_TURNS} turns. */
  readonly ctxgitSaverPut?: Percentiles;
  /** `CtxgitSaver.put` ÷ `SqliteSaver.put` of the same checkpoint (LangChain messages), medians. */
  readonly saverOverSqlite?: number;
}

/** Median, p95 and p99 (nearest rank), milliseconds. */
export interface Percentiles {
  readonly median: number;
  readonly p95: number;
  readonly p99: number;
}

/** A fresh process's first request of the session: medians, milliseconds. */
export interface ColdStartRow {
  readonly turns: number;
  readonly runs: number;
  /** `openRepo` + `openSession` + `commit()` (nothing new) + `render`. */
  readonly ctxgitMs: number;
  /** A new connection + `SqliteSaver.getTuple` of the thread. */
  readonly sqliteGetTupleMs: number;
  readonly ratio: number;
}

/** Result of {@link runCheckpointersBench}. */
export interface CheckpointersBenchResult {
  readonly quick: boolean;
  readonly versions: { readonly langgraphCheckpoint: string; readonly checkpointSqlite: string };
  readonly turnRows: readonly CheckpointerTurnRow[];
  readonly coldStart: readonly ColdStartRow[];
  readonly bytes: { readonly turns: number; readonly ctxgitBytes: number; readonly sqliteBytes: number; readonly ratio: number };
  readonly notes: readonly string[];
}

const WINDOW = 32_000;
const MODEL = 'openai:gpt-4o';
/** Sizes up to which `CtxgitSaver` takes part: every size of the full run (it is grown put by put, ~10 ms a put on disk at 5,000). */
const SAVER_TURNS = 10_000;

const ratio = (a: number, b: number): number => Number((a / b).toFixed(3));

function percentiles(xs: readonly number[]): Percentiles {
  return { median: median(xs), p95: p95(xs), p99: p99(xs) };
}

function treeBytes(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    n += st.isDirectory() ? treeBytes(p) : st.size;
  }
  return n;
}

interface Grower {
  readonly repo: Repo;
  readonly session: Session;
  /** Transcript index → node id. */
  readonly ids: Map<number, string>;
  next: number;
  items: number;
  /** `render` of each turn's commit, kept apart from the append + commit. */
  renderMs: number[];
}

async function growOnce(g: Grower, entries: readonly TranscriptEntry[], call: number): Promise<number> {
  const inputs: BatchNodeInput[] = [];
  const at = new Map<number, number>();
  for (; g.next < call; g.next++) {
    const e = entries[g.next] as TranscriptEntry;
    const caller = e.caller === undefined ? undefined : (at.get(e.caller) ?? g.ids.get(e.caller));
    at.set(g.next, inputs.length);
    inputs.push(entryInput(e, caller));
  }
  const a = performance.now();
  const { nodes, commit } = await g.session.appendTurn(inputs);
  const b = performance.now();
  render(commit, { provider: 'openai-chat' });
  g.renderMs.push(performance.now() - b);
  // the roll-up the write started in the background runs during the model call in a backend; here it would run
  // into the next contender's timing (the storage topic times it)
  await g.repo.settled();
  for (const [i, k] of at) g.ids.set(i, (nodes[k] as { id: string }).id);
  g.items = commit.items.length;
  return b - a;
}

/**
 * Runs the checkpointer comparison.
 *
 * @param opts - `quick`: sizes 100 and 1,000, 20 measured turns, bytes at 300 turns, 3 cold starts; else sizes
 *   100, 1,000, 5,000 and 10,000, 50 measured turns, bytes at 1,000 turns, 5 cold starts; `sizes` and `measured`
 *   override those (bytes are measured at 1,000 turns when a full run reaches it, else at 300 or the run's last turn); `log` for progress
 * @returns the figures
 * @example
 * ```ts
 * const r = await runCheckpointersBench({ quick: true });
 * ```
 */
export async function runCheckpointersBench(opts: {
  readonly quick: boolean;
  readonly sizes?: readonly number[];
  readonly measured?: number;
  readonly log?: (line: string) => void;
}): Promise<CheckpointersBenchResult> {
  const log = opts.log ?? ((): void => undefined);
  const sizes = opts.sizes ?? (opts.quick ? [100, 1000] : [100, 1000, 5000, 10_000]);
  const measured = opts.measured ?? (opts.quick ? 20 : 50);
  const last = (sizes.at(-1) as number) + measured;
  const bytesAt = !opts.quick && last >= 1000 ? 1000 : Math.min(300, last);
  const coldRuns = opts.quick ? 3 : 5;
  const Database = loadBetterSqlite3(log);
  const chain = await chainCorpus(last + 2);
  // the LangChain message list up to the model call of a turn (CtxgitSaver's state)
  const upTo = <T>(turn: number, list: readonly T[]): T[] => list.slice(0, (chain.calls[turn - 1] as number) + 1);
  const base = mkdtempSync(join(tmpdir(), 'ctxgit-bench-checkpointers-'));
  // the savers ctxgit is compared with, in a process of their own (see saver-process.ts); they chain the same corpus
  const savers = new SaverProcess(last + 2);
  try {
    let t = 1_700_000_000_000;
    const clock = (): number => (t += 1000);
    const diskDir = join(base, 'ctx.git');
    const disk = await openRepo({ dir: diskDir, clock });
    const noFsync = await openRepo({ dir: join(base, 'nofsync.git'), clock, fsync: false });
    const mem = await openRepo({ memory: true, clock });
    const start = prefix(chain, 1);
    const growers: Grower[] = [];
    for (const repo of [disk, noFsync, mem]) {
      const session = await repo.importSession('bench', start, { model: MODEL, window: WINDOW, clock });
      await session.commit();
      growers.push({ repo, session, ids: new Map([[start.head as number, (await session.head()) as string]]), next: (start.head as number) + 1, items: 0, renderMs: [] });
    }
    const [gDisk, gNoFsync, gMem] = growers as [Grower, Grower, Grower];
    await savers.ask({ op: 'open', name: 'bytes', file: join(base, 'bytes.sqlite') });
    await savers.ask({ op: 'put', name: 'bytes', turn: 1 });
    let bytes: CheckpointersBenchResult['bytes'] | undefined;
    const turnRows: CheckpointerTurnRow[] = [];
    const coldStart: ColdStartRow[] = [];
    let turn = 1;
    const advance = async (): Promise<{ disk: number; noFsync: number; mem: number }> => {
      turn++;
      const call = chain.calls[turn - 1] as number;
      const d = await growOnce(gDisk, chain.entries, call);
      const n = await growOnce(gNoFsync, chain.entries, call);
      const m = await growOnce(gMem, chain.entries, call);
      if (turn <= bytesAt) await savers.ask({ op: 'put', name: 'bytes', turn });
      if (turn === bytesAt) {
        await savers.ask({ op: 'checkpoint', name: 'bytes' });
        const sqliteBytes = ['bytes.sqlite', 'bytes.sqlite-wal'].reduce((n, f) => n + (readdirSync(base).includes(f) ? statSync(join(base, f)).size : 0), 0);
        const ctxgitBytes = treeBytes(diskDir);
        bytes = { turns: bytesAt, ctxgitBytes, sqliteBytes, ratio: ratio(ctxgitBytes, sqliteBytes) };
        log(`checkpointers: bytes at ${bytesAt} turns: ctxgit ${ctxgitBytes}, SqliteSaver ${sqliteBytes}`);
      }
      return { disk: d, noFsync: n, mem: m };
    };
    for (const size of sizes) {
      while (turn < size) await advance();
      log(`checkpointers: ${size} turns reached`);
      const sqliteFile = join(base, `put-${size}.sqlite`);
      const [sqlite, memory] = [`sqlite-${size}`, `memory-${size}`];
      await savers.ask({ op: 'open', name: sqlite, file: sqliteFile });
      await savers.ask({ op: 'open', name: memory });
      await savers.ask({ op: 'put', name: sqlite, turn: size });
      await savers.ask({ op: 'put', name: memory, turn: size });
      gDisk.renderMs.length = 0;
      const times = { disk: [] as number[], noFsync: [] as number[], sqlite: [] as number[], mem: [] as number[], memory: [] as number[] };
      for (let k = 0; k < measured; k++) {
        const ours = await advance();
        times.disk.push(ours.disk);
        times.noFsync.push(ours.noFsync);
        times.mem.push(ours.mem);
        times.sqlite.push(await savers.ask({ op: 'put', name: sqlite, turn }));
        times.memory.push(await savers.ask({ op: 'put', name: memory, turn }));
      }
      const row: CheckpointerTurnRow = {
        turns: size,
        measured,
        ctxgitDisk: percentiles(times.disk),
        ctxgitDiskNoFsync: percentiles(times.noFsync),
        renderMedianMs: median(gDisk.renderMs),
        sqlitePut: percentiles(times.sqlite),
        diskOverSqlite: ratio(median(times.disk), median(times.sqlite)),
        diskNoFsyncOverSqlite: ratio(median(times.noFsync), median(times.sqlite)),
        ctxgitMemfs: percentiles(times.mem),
        memoryPut: percentiles(times.memory),
        memfsOverMemory: ratio(median(times.mem), median(times.memory)),
        items: gDisk.items,
        messages: (chain.calls[turn - 1] as number) + 1,
      };
      turnRows.push(row);
      const cold = { ctxgit: [] as number[], sqlite: [] as number[] };
      await savers.ask({ op: 'close', name: sqlite });
      await savers.ask({ op: 'close', name: memory });
      for (let k = 0; k < coldRuns; k++) {
        let a = performance.now();
        const repo = await openRepo({ dir: diskDir, clock });
        const s = await repo.openSession('bench');
        render(await s.commit(), { provider: 'openai-chat' });
        cold.ctxgit.push(performance.now() - a);
        a = performance.now();
        const db = new Database(sqliteFile);
        const tuple = await new SqliteSaver(db as ConstructorParameters<typeof SqliteSaver>[0]).getTuple({ configurable: { thread_id: 'bench' } });
        if (tuple === undefined) throw new Error('SqliteSaver lost the thread');
        cold.sqlite.push(performance.now() - a);
        (db as { close(): void }).close();
      }
      coldStart.push({ turns: size, runs: coldRuns, ctxgitMs: median(cold.ctxgit), sqliteGetTupleMs: median(cold.sqlite), ratio: ratio(median(cold.ctxgit), median(cold.sqlite)) });
      log(`checkpointers: ${size} turns: disk ÷ SqliteSaver ${row.diskOverSqlite} (fsync off ${row.diskNoFsyncOverSqlite}), memfs ÷ MemorySaver ${row.memfsOverMemory}, cold start ${coldStart.at(-1)?.ratio}`);
    }
    await savers.ask({ op: 'close', name: 'bytes' });
    // ctxgit's LangGraph checkpointer in a pass of its own (its puts between the turns above would weigh on their
    // timings, as any work between turns does): grown put by put, timed at each size alternating with SqliteSaver.put
    // of the same checkpoints (LangChain messages)
    const lcMessages = langchainMessages(chain.entries);
    const saverRepo = await openRepo({ dir: join(base, 'saver.git'), clock });
    const saverThread = new Thread(new CtxgitSaver({ repo: saverRepo, session: { model: MODEL, window: WINDOW } }), 'bench');
    let saverTurn = 0;
    const saverPut = async (): Promise<number> => {
      saverTurn++;
      const a = performance.now();
      await saverThread.put(upTo(saverTurn, lcMessages));
      const ms = performance.now() - a;
      await saverRepo.settled();
      return ms;
    };
    for (const [i, size] of sizes.entries()) {
      if (size > SAVER_TURNS) break;
      while (saverTurn < size) await saverPut();
      const lcSqlite = `lc-${size}`;
      await savers.ask({ op: 'open', name: lcSqlite, file: join(base, `lc-${size}.sqlite`), langchain: true });
      await savers.ask({ op: 'put', name: lcSqlite, turn: size });
      const times = { saver: [] as number[], lcSqlite: [] as number[] };
      for (let k = 0; k < measured; k++) {
        times.saver.push(await saverPut());
        times.lcSqlite.push(await savers.ask({ op: 'put', name: lcSqlite, turn: saverTurn }));
      }
      await savers.ask({ op: 'close', name: lcSqlite });
      const row = { ...(turnRows[i] as CheckpointerTurnRow), ctxgitSaverPut: percentiles(times.saver), saverOverSqlite: ratio(median(times.saver), median(times.lcSqlite)) };
      turnRows[i] = row;
      log(`checkpointers: ${size} turns: CtxgitSaver ÷ SqliteSaver ${row.saverOverSqlite}`);
    }
    if (bytes === undefined) throw new Error(`the run stopped before ${bytesAt} turns`);
    return {
      quick: opts.quick,
      versions: { langgraphCheckpoint: '1.2.2', checkpointSqlite: '1.0.4' },
      turnRows,
      coldStart,
      bytes,
      notes: [
        'The contenders alternate turn by turn, ctxgit in the bench process and the savers in a node process of their own (each put timed there while the bench waits), so that neither collects the garbage of the other in its timed step. ctxgit grows the session turn by turn; a saver thread is seeded with the state at turn N by one put (a put writes the whole state).',
        'SqliteSaver with its defaults (better-sqlite3: WAL, synchronous NORMAL, which does not fsync each commit: a put survives a crash of the process, not a power loss); ctxgit on disk with its default fsync on (survives both), and with fsync off (ctxgitDiskNoFsync: survives a crash of the process, not a power loss — the same class as SqliteSaver, though after a power loss SQLite stays consistent where a ref may name objects that never reached the disk).',
        "Cold start runs in this process with a new repository object and a new SQLite connection; the OS page cache is warm for both.",
        `CtxgitSaver (up to ${SAVER_TURNS} turns) is grown put by put on its own repository in a pass after the one above, and timed alternating with SqliteSaver.put of the same checkpoints (LangChain messages, heavier to serialize than the plain objects of sqlitePut).`,
      ],
    };
  } finally {
    savers.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizesArg = process.argv.find((a) => a.startsWith('--sizes='));
  const measuredArg = process.argv.find((a) => a.startsWith('--measured='));
  const r = await runCheckpointersBench({
    quick: process.argv.includes('--quick'),
    ...(sizesArg === undefined ? {} : { sizes: sizesArg.slice('--sizes='.length).split(',').map(Number) }),
    ...(measuredArg === undefined ? {} : { measured: Number(measuredArg.slice('--measured='.length)) }),
    log: (l) => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
