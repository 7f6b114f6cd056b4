/**
 * Cold start (issue 17, item 5): a fresh process opens the repository, opens the session, asks for its latest
 * commit (`commit()` with nothing new) and renders it. The chained corpus session is grown turn by turn on disk
 * (`appendTurn`, as a live backend writes it) to 100 and 1,000 turns (and 10,000 unless quick); then, per size,
 * `runs` fresh node processes each measure, after the modules are imported: wall and CPU milliseconds of
 * open + commit + render, and the objects read from storage (`onObjectRead`). The module imports are timed apart
 * (under tsx they include transpiling). The same fresh processes also time a new connection + `SqliteSaver.getTuple`
 * of a thread holding the same messages, alternating (better-sqlite3 is built first where it is not, see
 * native-sqlite.ts; without Node's headers the comparison is left out).
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/cold-start.ts [--quick] [--sizes=100,1000] [--keep=DIR]`
 * (a kept repository: `... cold-start.ts --child DIR/ctx.git` runs one fresh process, e.g. under `--cpu-prof`)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TranscriptEntry } from '@ctxgit/dag';
import { loadBetterSqlite3 } from './native-sqlite.js';
import { median } from './stats.js';

/** One size: medians over the fresh processes; milliseconds. */
export interface ColdStartBenchRow {
  readonly turns: number;
  readonly runs: number;
  /** Items of the latest commit's live list. */
  readonly liveItems: number;
  /** Objects the fresh process read from storage (loose or packed). */
  readonly objectsRead: number;
  /** open + commit + render after the modules are loaded: wall and CPU. */
  readonly wallMs: number;
  readonly cpuMs: number;
  /** The phases, wall. */
  readonly openMs: number;
  readonly commitMs: number;
  readonly renderMs: number;
  /** `import()` of `@ctxgit/commit` and `@ctxgit/render` in the fresh process (under tsx: includes transpiling): wall and CPU. */
  readonly importMs: number;
  readonly importCpuMs: number;
  /** A new connection + `SqliteSaver.getTuple`, wall, in the same fresh processes; null when better-sqlite3 is not built. */
  readonly sqliteGetTupleMs: number | null;
  /** ctxgit wall ÷ SqliteSaver getTuple, medians; null without better-sqlite3. */
  readonly ratio: number | null;
  /** The same in CPU time (less sensitive to other load on the machine). */
  readonly sqliteCpuMs: number | null;
  readonly cpuRatio: number | null;
}

/** Result of {@link runColdStartBench}. */
export interface ColdStartBenchResult {
  readonly quick: boolean;
  readonly rows: readonly ColdStartBenchRow[];
  readonly notes: readonly string[];
}

interface ChildReport {
  readonly importMs: number;
  readonly importCpuMs: number;
  readonly openMs: number;
  readonly commitMs: number;
  readonly renderMs: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly objectsRead: number;
  readonly liveItems: number;
  readonly sqliteGetTupleMs: number | null;
  readonly sqliteCpuMs: number | null;
}

const WINDOW = 32_000;
const MODEL = 'openai:gpt-4o';
const SELF = fileURLToPath(import.meta.url);

/** The built `better-sqlite3` constructor in the fresh process, or undefined when its addon is not built (the parent builds it). */
function betterSqlite3(): (new (file: string) => unknown) | undefined {
  const require = createRequire(import.meta.url);
  const sqliteRequire = createRequire(require.resolve('@langchain/langgraph-checkpoint-sqlite'));
  const pkg = dirname(sqliteRequire.resolve('better-sqlite3/package.json'));
  if (!existsSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'))) return undefined;
  return sqliteRequire('better-sqlite3') as new (file: string) => unknown;
}

/** The fresh process: times open + commit + render (and SqliteSaver.getTuple when given a database). */
async function child(dir: string, sqliteFile: string | undefined): Promise<ChildReport> {
  const i0 = performance.now();
  const icpu = process.cpuUsage();
  const { openRepo } = await import('@ctxgit/commit');
  const { render } = await import('@ctxgit/render');
  const importMs = performance.now() - i0;
  const importCpu = process.cpuUsage(icpu);
  const read = new Set<string>();
  const cpu0 = process.cpuUsage();
  const a = performance.now();
  const repo = await openRepo({ dir, onObjectRead: (oid) => void read.add(oid) });
  const session = await repo.openSession('bench');
  const b = performance.now();
  const commit = await session.commit();
  const c = performance.now();
  render(commit, { provider: 'openai-chat' });
  const d = performance.now();
  const cpu = process.cpuUsage(cpu0);
  let sqliteGetTupleMs: number | null = null;
  let sqliteCpuMs: number | null = null;
  if (sqliteFile !== undefined) {
    const Database = betterSqlite3();
    const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
    if (Database !== undefined) {
      const s = performance.now();
      const scpu = process.cpuUsage();
      const db = new Database(sqliteFile);
      const tuple = await new SqliteSaver(db as ConstructorParameters<typeof SqliteSaver>[0]).getTuple({ configurable: { thread_id: 'bench' } });
      sqliteGetTupleMs = performance.now() - s;
      const used = process.cpuUsage(scpu);
      sqliteCpuMs = (used.user + used.system) / 1000;
      if (tuple === undefined) throw new Error('SqliteSaver lost the thread');
      (db as { close(): void }).close();
    }
  }
  return {
    importMs,
    importCpuMs: (importCpu.user + importCpu.system) / 1000,
    openMs: b - a,
    commitMs: c - b,
    renderMs: d - c,
    wallMs: d - a,
    cpuMs: (cpu.user + cpu.system) / 1000,
    objectsRead: read.size,
    liveItems: commit.items.length,
    sqliteGetTupleMs,
    sqliteCpuMs,
  };
}

function runChild(dir: string, sqliteFile: string | undefined): ChildReport {
  const args = ['--conditions=@ctxgit/source', '--import', 'tsx', SELF, '--child', dir, ...(sqliteFile === undefined ? [] : ['--sqlite', sqliteFile])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: dirname(dirname(SELF)) });
  if (r.status !== 0) throw new Error(`cold-start child failed (exit ${String(r.status)}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as ChildReport;
}

/** A LangGraph messages channel entry for a transcript entry (as the checkpointers topic stores them). */
function message(e: TranscriptEntry): Record<string, unknown> {
  return { role: e.role, content: e.output, ...(e.name === undefined ? {} : { name: e.name }), ...(e.input === undefined ? {} : { tool_input: e.input }) };
}

/** A SqliteSaver thread holding `messages` in `file`; builds better-sqlite3 first where it is not built (as the checkpointers topic does). False when it cannot be built here. */
async function seedSqlite(file: string, messages: readonly Record<string, unknown>[], log: (line: string) => void): Promise<boolean> {
  let Database: new (file: string) => unknown;
  try {
    Database = loadBetterSqlite3(log);
  } catch (err) {
    log(`cold-start: no SqliteSaver comparison: ${(err as Error).message}`);
    return false;
  }
  const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
  const db = new Database(file);
  const saver = new SqliteSaver(db as ConstructorParameters<typeof SqliteSaver>[0]);
  const checkpoint = { v: 4, id: '000000000001', ts: new Date(1_700_000_000_000).toISOString(), channel_values: { messages }, channel_versions: { messages: 1 }, versions_seen: {} };
  await saver.put({ configurable: { thread_id: 'bench', checkpoint_ns: '' } }, checkpoint, { source: 'loop', step: 1, parents: {} });
  (db as { close(): void }).close();
  return true;
}

/**
 * Runs the cold-start comparison.
 *
 * @param opts - `quick`: 100 and 1,000 turns, 3 fresh processes each; else 100, 1,000 and 10,000 turns, 5 each;
 *   `sizes` overrides the sizes; `keepDir` builds there and keeps it (for profiling a child); `log` for progress
 * @returns the figures
 * @example
 * ```ts
 * const r = await runColdStartBench({ quick: true });
 * ```
 */
export async function runColdStartBench(opts: { readonly quick: boolean; readonly sizes?: readonly number[]; readonly keepDir?: string; readonly log?: (line: string) => void }): Promise<ColdStartBenchResult> {
  const log = opts.log ?? ((): void => undefined);
  // imported here, not at the top: the fresh process (this module with --child) times its own imports
  const { openRepo } = await import('@ctxgit/commit');
  const { chainCorpus, prefix, TurnFeeder } = await import('./commit.js');
  const sizes = opts.sizes ?? (opts.quick ? [100, 1000] : [100, 1000, 10_000]);
  const runs = opts.quick ? 3 : 5;
  const chain = await chainCorpus((sizes.at(-1) as number) + 2);
  const base = opts.keepDir ?? mkdtempSync(join(tmpdir(), 'ctxgit-bench-cold-'));
  try {
    let t = 1_700_000_000_000;
    const clock = (): number => (t += 1000);
    const dir = join(base, 'ctx.git');
    const repo = await openRepo({ dir, clock, fsync: false });
    const start = prefix(chain, 1);
    const session = await repo.importSession('bench', start, { model: MODEL, window: WINDOW, clock });
    await session.commit();
    const feeder = new TurnFeeder(chain, start.head as number, (await session.head()) as string);
    let turn = 1;
    const rows: ColdStartBenchRow[] = [];
    for (const size of sizes) {
      const grow0 = performance.now();
      while (turn < size) {
        turn++;
        const { inputs, record } = feeder.next(chain.calls[turn - 1] as number);
        record((await session.appendTurn(inputs)).nodes);
      }
      await repo.settled(); // the files as the last write's roll-up leaves them
      log(`cold-start: grew to ${size} turns in ${Math.round(performance.now() - grow0)} ms`);
      const sqliteFile = join(base, `state-${size}.sqlite`);
      const messages = chain.entries.slice(0, (chain.calls[size - 1] as number) + 1).map(message);
      const sqlite = (await seedSqlite(sqliteFile, messages, log)) ? sqliteFile : undefined;
      const reports: ChildReport[] = [];
      for (let k = 0; k < runs; k++) reports.push(runChild(dir, sqlite));
      const m = (f: (r: ChildReport) => number): number => Number(median(reports.map(f)).toFixed(1));
      const sqliteMs = sqlite === undefined ? null : m((r) => r.sqliteGetTupleMs ?? 0);
      const row: ColdStartBenchRow = {
        turns: size,
        runs,
        liveItems: reports[0]?.liveItems ?? 0,
        objectsRead: reports[0]?.objectsRead ?? 0,
        wallMs: m((r) => r.wallMs),
        cpuMs: m((r) => r.cpuMs),
        openMs: m((r) => r.openMs),
        commitMs: m((r) => r.commitMs),
        renderMs: m((r) => r.renderMs),
        importMs: m((r) => r.importMs),
        importCpuMs: m((r) => r.importCpuMs),
        sqliteGetTupleMs: sqliteMs,
        ratio: sqliteMs === null || sqliteMs === 0 ? null : Number((m((r) => r.wallMs) / sqliteMs).toFixed(3)),
        sqliteCpuMs: sqlite === undefined ? null : m((r) => r.sqliteCpuMs ?? 0),
        cpuRatio: sqlite === undefined ? null : Number((m((r) => r.cpuMs) / m((r) => r.sqliteCpuMs ?? 0)).toFixed(3)),
      };
      rows.push(row);
      log(`cold-start: ${size} turns: ${row.objectsRead} objects read, ${row.wallMs} ms wall, ${row.cpuMs} ms CPU${row.ratio === null ? '' : `, ${row.ratio}× SqliteSaver.getTuple (CPU ${row.cpuRatio}×)`}`);
    }
    return {
      quick: opts.quick,
      rows,
      notes: [
        'Each run is a new node process (tsx); the figures start after the modules are imported (importMs apart). The OS page cache is warm.',
        'The session is grown turn by turn with appendTurn on disk (fsync off while growing; the child opens with the defaults).',
        'SqliteSaver: one put of the same message list (a put writes the whole state), then a new connection + getTuple in the same fresh process.',
      ],
    };
  } finally {
    if (opts.keepDir === undefined) rmSync(base, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--child');
  if (at >= 0) {
    const s = argv.indexOf('--sqlite');
    const report = await child(argv[at + 1] as string, s >= 0 ? argv[s + 1] : undefined);
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    const sizesArg = argv.find((a) => a.startsWith('--sizes='));
    const sizes = sizesArg?.slice('--sizes='.length).split(',').map(Number);
    const keep = argv.find((a) => a.startsWith('--keep='))?.slice('--keep='.length);
    const r = await runColdStartBench({ quick: argv.includes('--quick'), ...(sizes === undefined ? {} : { sizes }), ...(keep === undefined ? {} : { keepDir: keep }), log: (l) => process.stderr.write(`${l}\n`) });
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  }
}
