import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CRASH_WORKER } from './bundle.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** One line of a worker: `ready`, `begin <op>`, `end <op>`, `ack <session> <id>`, `commit <session> <oid> [folded]`, … */
export type WorkerLine = readonly string[];

/** A worker process (fixtures/crash-worker.ts bundled, plain node; see bundle.ts): loaded, waiting for its arguments. */
export interface FastWorker {
  readonly ready: Promise<void>;
  /** Starts it: `["op", gitdir, kind, label]` or `["turns", gitdir, session, label, turns]`. */
  go(args: readonly string[]): void;
  /** Every line so far, split on spaces. */
  readonly lines: WorkerLine[];
  /** Called for each line as it arrives. */
  onLine: ((line: WorkerLine) => void) | undefined;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(): void;
}

/** Spawns `node .build/crash-worker.mjs` (call `buildBundles` of bundle.ts first, in a beforeAll). */
export function startFastWorker(): FastWorker {
  const child = spawn(process.execPath, [CRASH_WORKER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const worker: FastWorker = {
    ready,
    lines: [],
    onLine: undefined,
    go: (args) => child.stdin.write(`go ${JSON.stringify(args)}\n`),
    done: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr }))),
    kill: () => child.kill('SIGKILL'),
  };
  child.stdin.on('error', () => undefined); // a killed worker's stdin
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl).split(' ');
      buffer = buffer.slice(nl + 1);
      if (line[0] === 'ready') markReady();
      worker.lines.push(line);
      worker.onLine?.(line);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return worker;
}

/** A running turn worker: what it acknowledged so far, and how it ended. */
export interface WorkerRun {
  readonly acks: string[];
  readonly commits: string[];
  /** Codes of the conflicts the worker met and retried. */
  readonly conflicts: string[];
  /** Exit code, or the signal that ended it. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/**
 * A worker process running `turns` turns (append + commit) on `session` of the repository at `gitdir` (created if
 * missing), retrying conflicts as a chat backend would; it exits 0 after its turns.
 */
export function startWorker(gitdir: string, session: string, label: string, turns: number): WorkerRun {
  const worker = startFastWorker();
  const acks: string[] = [];
  const commits: string[] = [];
  const conflicts: string[] = [];
  worker.onLine = ([kind, a = '', b = '']) => {
    if (kind === 'ack') acks.push(b);
    else if (kind === 'commit') commits.push(b);
    else if (kind === 'conflict') conflicts.push(a);
  };
  worker.go(['turns', gitdir, session, label, String(turns)]);
  return { acks, commits, conflicts, done: worker.done };
}
