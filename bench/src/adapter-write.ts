/**
 * What a model call's write costs through the adapters, which pass the whole conversation each time (issue 17): the
 * chained corpus grown to `--turns` model calls on disk (fsync on, the default), then `--measured` more calls timed.
 * `--saver session` (default) times `Session.appendNew(history, { commit: {} })` on one session object, the one write
 * the SDK clients and the AI SDK middleware make (`--separate`: `appendNew(history)` then `commit()`, two writes, as
 * they did before the one-write call; that form runs on earlier versions too; `--reopen`: a session object opened
 * afresh for every call, as a stateless backend does, so nothing is kept between calls). Each call's entries are new
 * objects, as the clients and the middleware convert the messages anew each call; `--same-entries` passes the same
 * entry objects every call (a caller that keeps its converted messages: `appendNew` compares only the new ones);
 * `--saver langgraph` times `CtxgitSaver.put` of the LangChain
 * message list, alternating call by call with `SqliteSaver.put` of the same checkpoint (its defaults: WAL,
 * synchronous NORMAL, no fsync per commit). Prints JSON: medians and p95 in milliseconds.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/adapter-write.ts [--saver session|langgraph] [--separate] [--reopen] [--same-entries] [--turns 100] [--measured 20]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { HistoryEntry } from '@ctxgit/commit';
import { openRepo } from '@ctxgit/commit';
import { entryInput } from '@ctxgit/dag';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { CtxgitSaver } from '../../packages/langgraph/src/index.js';
import { Thread } from './saver-thread.js';
import { chainCorpus, prefix } from './commit.js';
import { langchainMessages } from './langchain-messages.js';
import { loadBetterSqlite3 } from './native-sqlite.js';
import { scriptArg } from './script-arg.js';
import { median, p95 } from './stats.js';

const argv = process.argv.slice(2);
const saver = scriptArg(argv, 'saver', 'session');
const turns = Number(scriptArg(argv, 'turns', '100'));
const measured = Number(scriptArg(argv, 'measured', '20'));
const separate = argv.includes('--separate');
const reopen = argv.includes('--reopen');
const sameEntries = argv.includes('--same-entries');
const MODEL = 'openai:gpt-4o';
const WINDOW = 32_000;

const round = (ms: number): number => Number(ms.toFixed(2));

const chain = await chainCorpus(turns + measured + 1);
const upTo = <T>(list: readonly T[], turn: number): T[] => list.slice(0, (chain.calls[turn - 1] as number) + 1);
const base = mkdtempSync(join(tmpdir(), 'ctxgit-bench-adapter-'));
try {
  const repo = await openRepo({ dir: join(base, 'ctx.git') });
  if (saver === 'session') {
    // the chain's entries as a history (a tool entry names its assistant by index)
    const entries: HistoryEntry[] = chain.entries.map((e) => entryInput(e, e.caller));
    const s = await repo.importSession('bench', prefix(chain, turns), { model: MODEL, window: WINDOW });
    await s.commit();
    const times: number[] = [];
    for (let turn = turns + 1; turn <= turns + measured; turn++) {
      const history = sameEntries ? upTo(entries, turn) : upTo(entries, turn).map((e) => ({ ...e }));
      const a = performance.now();
      const session = reopen ? await repo.openSession('bench') : s;
      if (separate) {
        await session.appendNew(history);
        await session.commit();
      } else await session.appendNew(history, { commit: {} });
      times.push(performance.now() - a);
      await repo.settled(); // the roll-up the write started in the background, untimed: it runs during the model call in a backend (the storage topic times it)
    }
    process.stdout.write(`${JSON.stringify({ saver, separate, reopen, sameEntries, turns, measured, medianMs: round(median(times)), p95Ms: round(p95(times)) })}\n`);
  } else {
    const list = langchainMessages(chain.entries);
    const Database = loadBetterSqlite3(() => undefined);
    const ours = new Thread(new CtxgitSaver({ repo, session: { model: MODEL, window: WINDOW } }), 'bench');
    const sqlite = new Thread(new SqliteSaver(new Database(join(base, 'saver.sqlite')) as ConstructorParameters<typeof SqliteSaver>[0]), 'bench');
    // the ctxgit thread grows put by put (a LangGraph run's path), the SQLite one is seeded by one put
    for (let turn = 1; turn <= turns; turn++) await ours.put(upTo(list, turn));
    await sqlite.put(upTo(list, turns));
    const times = { ctxgit: [] as number[], sqlite: [] as number[] };
    for (let turn = turns + 1; turn <= turns + measured; turn++) {
      let a = performance.now();
      await ours.put(upTo(list, turn));
      times.ctxgit.push(performance.now() - a);
      await repo.settled(); // the roll-up the write started in the background, untimed: it runs during the model call in a backend (the storage topic times it)
      a = performance.now();
      await sqlite.put(upTo(list, turn));
      times.sqlite.push(performance.now() - a);
    }
    const [c, q] = [median(times.ctxgit), median(times.sqlite)];
    process.stdout.write(`${JSON.stringify({ saver, turns, measured, ctxgitSaverPutMedianMs: round(c), p95Ms: round(p95(times.ctxgit)), sqliteSaverPutMedianMs: round(q), ratio: round(c / q) })}\n`);
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
