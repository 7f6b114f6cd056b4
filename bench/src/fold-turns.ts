/**
 * What a fold turn costs in a running session and in one opened afresh (issue 17, fold turn ≤ 3× the median): grows one
 * chained corpus session to `--turns` (default 1000) by import, twice on disk (fsync off, as bench/src/storage.ts),
 * then times `--measured` (default 200) more turns of append + commit + render on both, alternating: `warm` keeps one
 * `Session` object (what a server does), `cold` opens the session again before every turn (a new process each turn:
 * nothing the session object holds). Both commit the same ids (checked every turn). Prints JSON per contender: the
 * median turn, the fold turns, the merge turns among them (a new `fold_summaries` summary: summaries folded into one),
 * the slowest of each over the median, and the objects the merge turns read. `--list` prints every fold turn.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/fold-turns.ts [--turns 1000] [--measured 200] [--list]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openRepo } from '@ctxgit/commit';
import type { ContextCommit, Repo, Session } from '@ctxgit/commit';
import { render } from '@ctxgit/render';
import { chainCorpus, prefix, TurnFeeder } from './commit.js';
import { scriptArg } from './script-arg.js';
import { median } from './stats.js';

interface FoldTurn {
  readonly turn: number;
  readonly ms: number;
  readonly folded: number;
  readonly merge: boolean;
  readonly objectsRead: number;
}

interface Contender {
  readonly name: 'warm' | 'cold';
  readonly repo: Repo;
  session: Session;
  readonly feeder: TurnFeeder;
  readonly reads: { n: number };
  readonly times: number[];
  readonly folds: FoldTurn[];
  last: ContextCommit;
}

const argv = process.argv.slice(2);
const turns = Number(scriptArg(argv, 'turns', '1000'));
const measured = Number(scriptArg(argv, 'measured', '200'));
const chain = await chainCorpus(turns + measured + 2);
const start = prefix(chain, turns);
const base = mkdtempSync(join(tmpdir(), 'ctxgit-bench-fold-turns-'));

async function contender(name: Contender['name']): Promise<Contender> {
  let t = 1_700_000_000_000;
  const clock = (): number => (t += 1000);
  const reads = { n: 0 };
  const repo = await openRepo({ dir: join(base, `${name}.git`), clock, fsync: false, onObjectRead: () => void reads.n++ });
  const session = await repo.importSession('bench', start, { model: 'openai:gpt-4o', window: 32_000, clock });
  const last = await session.commit();
  return { name, repo, session, feeder: new TurnFeeder(chain, start.head as number, (await session.head()) as string), reads, times: [], folds: [], last };
}

/** One turn of `c`: the cold contender opens the session first (not timed: a cold start is measured elsewhere). */
async function turn(c: Contender, k: number): Promise<string> {
  const { inputs, record } = c.feeder.next(chain.calls[turns + k] as number);
  await c.repo.settled();
  if (c.name === 'cold') c.session = await c.repo.openSession('bench');
  c.reads.n = 0;
  const a = performance.now();
  const { nodes, commit } = await c.session.appendTurn(inputs);
  render(commit, { provider: 'openai-chat' });
  const ms = performance.now() - a;
  record(nodes);
  if (k >= 2) {
    c.times.push(ms);
    const before = new Set(c.last.items.map((it) => it.key));
    const merge = commit.items.some((it) => it.reason === 'fold_summaries' && !before.has(it.key));
    if (commit.summary.folded > 0) c.folds.push({ turn: k, ms: Number(ms.toFixed(2)), folded: commit.summary.folded, merge, objectsRead: c.reads.n });
  }
  c.last = commit;
  return commit.id;
}

try {
  const warm = await contender('warm');
  const cold = await contender('cold');
  for (let k = 0; k < measured + 2; k++) {
    // alternating which goes first
    const [a, b] = k % 2 === 0 ? [warm, cold] : [cold, warm];
    if ((await turn(a, k)) !== (await turn(b, k))) throw new Error(`turn ${k}: warm and cold sessions committed different ids`);
  }
  const report = (c: Contender): object => {
    const med = median(c.times);
    const merges = c.folds.filter((f) => f.merge);
    const slowest = (fs: readonly FoldTurn[]): number => (fs.length === 0 ? 0 : Math.max(...fs.map((f) => f.ms)));
    return {
      turnMedianMs: Number(med.toFixed(2)),
      foldTurns: c.folds.length,
      slowestFoldOverMedian: Number((slowest(c.folds) / med).toFixed(2)),
      mergeTurns: merges.length,
      slowestMergeOverMedian: Number((slowest(merges) / med).toFixed(2)),
      mergeObjectsRead: merges.map((f) => f.objectsRead),
      ...(argv.includes('--list') ? { folds: c.folds } : {}),
    };
  };
  process.stdout.write(`${JSON.stringify({ turns, measured, warm: report(warm), cold: report(cold) }, null, 2)}\n`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
