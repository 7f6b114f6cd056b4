/**
 * The LangGraph savers ctxgit is compared with (bench/src/checkpointers.ts), in a node process of their own: a put of
 * 10,000 messages leaves megabytes of garbage, which in a shared heap is collected during whatever runs next — the
 * other contender's timed turn. A backend keeps one of them, not both; here each keeps its own heap, and the steps still
 * alternate in time (the parent waits for each put, untimed there; the put is timed in this process).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { MemorySaver } from '@langchain/langgraph-checkpoint';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { chainCorpus } from './commit.js';
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

type Reply = { readonly id: number; readonly ms: number } | { readonly id: number; readonly error: string };

/** A LangGraph messages channel entry for a transcript entry (plain objects, lighter than LangChain messages). */
function plainMessage(e: TranscriptEntry): Record<string, unknown> {
  return { role: e.role, content: e.output, ...(e.name === undefined ? {} : { name: e.name }), ...(e.input === undefined ? {} : { tool_input: e.input }) };
}

/** The parent's handle on the savers' process: one request at a time, each answered with milliseconds. */
export class SaverProcess {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, { resolve: (ms: number) => void; reject: (e: Error) => void }>();
  #next = 0;

  /** Starts the process; it chains the corpus to `calls` model calls, as the parent does, and keeps the message lists of each turn. */
  constructor(calls: number) {
    this.#child = fork(fileURLToPath(import.meta.url), ['--saver-process', String(calls)], { execArgv: ['--conditions=@ctxgit/source', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (m: Reply) => {
      const w = this.#waiting.get(m.id);
      this.#waiting.delete(m.id);
      if ('error' in m) w?.reject(new Error(`saver process: ${m.error}`));
      else w?.resolve(m.ms);
    });
    this.#child.on('exit', (code) => {
      for (const w of this.#waiting.values()) w.reject(new Error(`saver process exited (${String(code)})`));
      this.#waiting.clear();
    });
  }

  /** Sends one request; resolves with the put's milliseconds (0 for the other requests). */
  ask(request: SaverRequest): Promise<number> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#child.send({ id, ...request });
    });
  }

  /** Ends the process. */
  stop(): void {
    if (this.#child.connected) this.#child.disconnect();
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
  process.on('message', (m: SaverRequest & { id: number }) => {
    run(m).then(
      (ms) => process.send?.({ id: m.id, ms }),
      (e: unknown) => process.send?.({ id: m.id, error: e instanceof Error ? e.message : String(e) }),
    );
  });
  process.on('disconnect', () => {
    for (const t of threads.values()) t.db?.close();
    process.exit(0);
  });
}

const at = process.argv.indexOf('--saver-process');
if (at >= 0 && process.send !== undefined) await serve(Number(process.argv[at + 1]));
