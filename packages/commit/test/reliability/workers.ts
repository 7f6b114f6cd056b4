import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./fixtures/turn-worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A running turn worker: what it acknowledged so far, and how it ended. */
export interface WorkerRun {
  readonly acks: string[];
  readonly commits: string[];
  /** Codes of the conflicts the worker met and retried. */
  readonly conflicts: string[];
  /** Exit code, or the signal that ended it. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(): void;
  readonly pid: number | undefined;
}

/** Spawns `node --conditions=@ctxgit/source --import tsx turn-worker.ts <gitdir> <session> <label> <turns> <mode>`. */
export function startWorker(gitdir: string, session: string, label: string, turns: number | 'forever', onLine?: (kind: 'ack' | 'commit', count: number) => void, mode: 'plain' | 'mix' = 'plain'): WorkerRun {
  const child = spawn(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', WORKER, gitdir, session, label, String(turns), mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: string[] = [];
  const commits: string[] = [];
  const conflicts: string[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('ack ')) {
        acks.push(line.slice(4));
        onLine?.('ack', acks.length);
      } else if (line.startsWith('commit ')) {
        commits.push(line.slice(7));
        onLine?.('commit', commits.length);
      } else if (line.startsWith('conflict ')) conflicts.push(line.slice(9));
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { acks, commits, conflicts, done, kill: () => child.kill('SIGKILL'), pid: child.pid };
}
