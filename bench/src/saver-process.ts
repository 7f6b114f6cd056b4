/**
 * The LangGraph savers ctxgit is compared with (bench/src/checkpointers.ts), in a node process of their own
 * (bench/src/ipc-child.ts): a put of 10,000 messages leaves megabytes of garbage, which a shared heap collects during
 * the other contender's timed turn. Each put is timed here while the parent waits.
 */
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { MemorySaver } from '@langchain/langgraph-checkpoint';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { chainCorpus } from './commit.js';
import { IpcChild, serveRequests } from './ipc-child.js';
import type { TranscriptEntry } from '@ctxgit/dag';
import { langchainMessages } from './langchain-messages.js';
import { loadBetterSqlite3 } from './native-sqlite.js';
import { Thread } from './saver-thread.js';

/** What the parent asks: `open` a thread (SQLite at `file`, else in memory), `put` its state at `turn` (the reply is the put's milliseconds), `checkpoint` a SQLite file's WAL into it, `close` a thread. */
export type SaverRequest =
  | { readonly op: 'open'; readonly name: string; readonly file?: string; readonly langchain?: boolean }
  | { readonly op: 'put'; readonly name: string; readonly turn: number }
  | { readonly op: 'checkpoint'; readonly name: string }
  | { readonly op: 'close'; readonly name: string };

/** A LangGraph messages channel entry for a transcript entry (plain objects, lighter than LangChain messages). */
function plainMessage(e: TranscriptEntry): Record<string, unknown> {
  return { role: e.role, content: e.output, ...(e.name === undefined ? {} : { name: e.name }), ...(e.input === undefined ? {} : { tool_input: e.input }) };
}

/** The parent's handle on the savers' process; a `put` answers with its milliseconds, the other requests with 0. */
export class SaverProcess extends IpcChild<SaverRequest, number> {
  /** Starts the process; it chains the corpus to `calls` model calls, as the parent does. */
  constructor(calls: number) {
    super(fileURLToPath(import.meta.url), ['--saver-process', String(calls)]);
  }
}

async function serve(calls: number): Promise<void> {
  const Database = loadBetterSqlite3(() => undefined);
  const chain = await chainCorpus(calls);
  const plain = chain.entries.map(plainMessage);
  let langchain: readonly unknown[] | undefined;
  const threads = new Map<string, { thread: Thread; list: readonly unknown[]; db?: { pragma(s: string): unknown; close(): void } }>();
  const run = async (r: SaverRequest): Promise<number> => {
    if (r.op === 'open') {
      const list = r.langchain === true ? (langchain ??= langchainMessages(chain.entries)) : plain;
      if (r.file === undefined) threads.set(r.name, { thread: new Thread(new MemorySaver(), 'bench'), list });
      else {
        const db = new Database(r.file) as { pragma(s: string): unknown; close(): void };
        threads.set(r.name, { thread: new Thread(new SqliteSaver(db as ConstructorParameters<typeof SqliteSaver>[0]), 'bench'), list, db });
      }
      return 0;
    }
    const t = threads.get(r.name);
    if (t === undefined) throw new Error(`no thread ${r.name}`);
    if (r.op === 'put') {
      const state = t.list.slice(0, (chain.calls[r.turn - 1] as number) + 1);
      const a = performance.now();
      await t.thread.put(state);
      return performance.now() - a;
    }
    if (r.op === 'checkpoint') t.db?.pragma('wal_checkpoint(TRUNCATE)');
    else {
      t.db?.close();
      threads.delete(r.name);
    }
    return 0;
  };
  serveRequests(run, () => {
    for (const t of threads.values()) t.db?.close();
  });
}

const at = process.argv.indexOf('--saver-process');
if (at >= 0) await serve(Number(process.argv[at + 1]));
