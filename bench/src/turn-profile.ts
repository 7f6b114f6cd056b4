/**
 * Where a turn's time goes (issue 17): grows one chained corpus session to `--turns` (default 100) turn by turn with
 * `appendTurn` + `render`, as bench/src/checkpointers.ts does, then times `--measured` (default 50) more turns with
 * every file-system call of the repository timed by its method (wall, summed over calls that may overlap) and, with
 * `--paths`, by method and path (hex names masked); with `--cpu-prof=FILE`, a V8 CPU profile of those turns alone.
 * `--fs=disk` (fsync on, the default), `disk-nofsync`, `disk-sync` (fsync off, every fs call made synchronously: what
 * the thread pool's round trips cost a turn) or `memfs`. With `--saver`, a turn is instead a put of ctxgit's LangGraph
 * checkpointer (`CtxgitSaver.put` of the LangChain message list, as the checkpointers topic times it). Prints JSON:
 * per-turn medians; the process's CPU during the turn and during the roll-up the turn's write starts in the background
 * (awaited with `repo.settled()` after the turn, untimed in the other topics: it runs during the model call); calls and
 * milliseconds per fs method per turn (the roll-up's included).
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/turn-profile.ts [--fs=disk] [--turns=100] [--measured=50] [--saver] [--paths] [--cpu-prof=FILE]`
 */
import * as nodeFs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session as Inspector } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openRepo } from '@ctxgit/commit';
import { CtxgitSaver } from '@ctxgit/langgraph';
import type { FsLike } from '@ctxgit/commit';
import { memoryFs } from '@ctxgit/commit/git';
import { render } from '@ctxgit/render';
import { Thread } from './saver-thread.js';
import { chainCorpus, prefix, TurnFeeder } from './commit.js';
import { langchainMessages } from './langchain-messages.js';
import { median } from './stats.js';

type Tally = Map<string, { calls: number; ms: number }>;

/** `fs` with each promise method (and each file handle's) timed into `tally` while `on()` holds. */
function timedFs(fs: FsLike, tally: Tally, on: () => boolean): FsLike {
  const note = (name: string, ms: number): void => {
    if (!on()) return;
    const t = tally.get(name) ?? { calls: 0, ms: 0 };
    t.calls++;
    t.ms += ms;
    tally.set(name, t);
  };
  const label = (prefixName: string, key: PropertyKey, args: readonly unknown[]): string =>
    `${prefixName}${String(key)}${tracePaths && typeof args[0] === 'string' ? ` ${args[0].replace(/^.*ctx\.git/u, '').replace(/[0-9a-f]{6,}/gu, 'x').replace(/tmp_[^/]*/u, 'tmp_*')}` : ''}`;
  const wrap = <T extends object>(target: T, prefixName: string): T =>
    new Proxy(target, {
      get(obj, key) {
        const value = Reflect.get(obj, key) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const a = performance.now();
          try {
            const out = (await (value as (...a: unknown[]) => Promise<unknown>).apply(obj, args)) as unknown;
            return key === 'open' && typeof out === 'object' && out !== null ? wrap(out, 'handle.') : out;
          } finally {
            note(label(prefixName, key, args), performance.now() - a);
          }
        };
      },
    });
  // the small files are read and written synchronously where the fs can (FsLike.readFileSync, FsLike.openSync, …): timed as such
  const syncKeys = ['readFileSync', 'openSync', 'readSync', 'writeSync', 'closeSync', 'linkSync', 'renameSync', 'unlinkSync'] as const;
  const syncs: Partial<Record<(typeof syncKeys)[number], unknown>> = {};
  for (const key of syncKeys) {
    const f = fs[key] as ((...a: unknown[]) => unknown) | undefined;
    if (f === undefined) continue;
    syncs[key] = (...args: unknown[]): unknown => {
      const a = performance.now();
      try {
        return f.apply(fs, args);
      } finally {
        note(label('', key, args), performance.now() - a);
      }
    };
  }
  // the flush runs in the background: timed from the call to its callback
  const flush = fs.fdatasync;
  const fdatasync =
    flush === undefined
      ? undefined
      : (fd: number, callback: (err?: Error | null) => void): void => {
          const a = performance.now();
          flush.call(fs, fd, (err) => {
            note('fdatasync', performance.now() - a);
            callback(err);
          });
        };
  return { promises: wrap(fs.promises, ''), ...(syncs as Partial<FsLike>), ...(fdatasync === undefined ? {} : { fdatasync }) };
}

/**
 * node's fs behind the promise API with every call made synchronously (no thread-pool round trip, no fsync): what a
 * turn's writes would cost if the fs calls did not wait on the thread pool (`--fs=disk-sync`).
 */
function syncNodeFs(): FsLike {
  const p = {
    readFile: async (path: string) => nodeFs.readFileSync(path),
    writeFile: async (path: string, data: Uint8Array | string, options?: { flag?: string }) => nodeFs.writeFileSync(path, data, options),
    open: async (path: string, flags: string) => {
      const fd = nodeFs.openSync(path, flags);
      return {
        writeFile: async (data: Uint8Array) => void nodeFs.writeSync(fd, data),
        read: async (buffer: Uint8Array, offset: number, length: number, position: number) => ({ bytesRead: nodeFs.readSync(fd, buffer, offset, length, position) }),
        datasync: async () => nodeFs.fdatasyncSync(fd),
        close: async () => nodeFs.closeSync(fd),
      };
    },
    rename: async (from: string, to: string) => nodeFs.renameSync(from, to),
    unlink: async (path: string) => nodeFs.unlinkSync(path),
    mkdir: async (path: string, options: { recursive: true }) => nodeFs.mkdirSync(path, options),
    readdir: async (path: string) => nodeFs.readdirSync(path),
    stat: async (path: string) => nodeFs.statSync(path),
    lstat: async (path: string) => nodeFs.lstatSync(path),
    rmdir: async (path: string) => nodeFs.rmdirSync(path),
    link: async (existing: string, path: string) => nodeFs.linkSync(existing, path),
  };
  return { promises: p, readFileSync: (path: string) => nodeFs.readFileSync(path) };
}

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const kind = arg('fs', 'disk');
const turns = Number(arg('turns', '100'));
const measured = Number(arg('measured', '50'));
const profileFile = arg('cpu-prof', '');
const tracePaths = process.argv.includes('--paths');
const saver = process.argv.includes('--saver');
const chain = await chainCorpus(turns + measured + 2);
const base = mkdtempSync(join(tmpdir(), 'ctxgit-turn-profile-'));
const tally: Tally = new Map();
let measuring = false;
try {
  let t = 1_700_000_000_000;
  const clock = (): number => (t += 1000);
  const raw: FsLike = kind === 'memfs' ? await memoryFs() : kind === 'disk-sync' ? syncNodeFs() : (nodeFs as unknown as FsLike);
  const repo = await openRepo({ dir: kind === 'memfs' ? '/ctx.git' : join(base, 'ctx.git'), fs: timedFs(raw, tally, () => measuring), fsync: kind === 'disk', clock });
  // one turn: what it wrote and the wall time of the write (a put of the checkpointer, or appendTurn + render)
  let turn: (k: number) => Promise<{ write: number; render: number; items: number }>;
  if (saver) {
    const messages = langchainMessages(chain.entries);
    const thread = new Thread(new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o', window: 32_000 } }), 'bench');
    turn = async (k) => {
      const a = performance.now();
      await thread.put(messages.slice(0, (chain.calls[k] as number) + 1));
      return { write: performance.now() - a, render: Number.NaN, items: Number.NaN };
    };
  } else {
    const start = prefix(chain, 1);
    const session = await repo.importSession('bench', start, { model: 'openai:gpt-4o', window: 32_000, clock });
    await session.commit();
    const feeder = new TurnFeeder(chain, start.head as number, (await session.head()) as string);
    turn = async (k) => {
      const { inputs, record } = feeder.next(chain.calls[k] as number);
      const a = performance.now();
      const { nodes, commit } = await session.appendTurn(inputs);
      const b = performance.now();
      // Growth turns are not rendered: a chained turn may end on an assistant message, which render refuses.
      if (measuring) render(commit, { provider: 'openai-chat' });
      const rendered = performance.now() - b;
      record(nodes);
      return { write: b - a, render: rendered, items: commit.items.length };
    };
  }
  const cpuMs = (since: NodeJS.CpuUsage): number => {
    const c = process.cpuUsage(since);
    return (c.user + c.system) / 1000;
  };
  // the turn, then the background roll-up it started (outside the turn's time; its fs calls still count)
  const step = async (k: number): Promise<{ write: number; render: number; items: number; cpu: number; rollUp: number; rollUpCpu: number }> => {
    const c0 = process.cpuUsage();
    const done = await turn(k);
    const cpu = cpuMs(c0);
    const c1 = process.cpuUsage();
    const a = performance.now();
    await repo.settled();
    return { ...done, cpu, rollUp: performance.now() - a, rollUpCpu: cpuMs(c1) };
  };
  for (let k = 1; k < turns; k++) await step(k);
  const inspector = new Inspector();
  if (profileFile !== '') {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
    await inspector.post('Profiler.start');
  }
  measuring = true;
  const rows: Awaited<ReturnType<typeof step>>[] = [];
  for (let k = turns; k < turns + measured; k++) rows.push(await step(k));
  measuring = false;
  if (profileFile !== '') {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    inspector.disconnect();
  }
  const perTurn = Object.fromEntries(
    [...tally].sort((a, b) => b[1].ms - a[1].ms).map(([k, v]) => [k, { calls: Number((v.calls / measured).toFixed(2)), ms: Number((v.ms / measured).toFixed(3)) }]),
  );
  const mean = (xs: readonly number[]): number => xs.reduce((n, x) => n + x, 0) / xs.length;
  process.stdout.write(
    `${JSON.stringify(
      {
        fs: kind,
        turn: saver ? 'CtxgitSaver.put' : 'appendTurn + render',
        turns,
        measured,
        writeMedianMs: median(rows.map((r) => r.write)),
        writeMeanMs: mean(rows.map((r) => r.write)),
        renderMedianMs: median(rows.map((r) => r.render)),
        /** CPU of the process during the turn: less sensitive to other load than wall times; above the wall where zlib or GC threads run. */
        cpuMedianMs: median(rows.map((r) => r.cpu)),
        cpuMeanMs: mean(rows.map((r) => r.cpu)),
        /** The background roll-up a turn starts, per turn: wall and CPU while `repo.settled()` waits for it. */
        rollUpMeanMs: mean(rows.map((r) => r.rollUp)),
        rollUpCpuMeanMs: mean(rows.map((r) => r.rollUpCpu)),
        items: rows.at(-1)?.items,
        fsPerTurn: perTurn,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
