import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./fixtures/backend-worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** What one backend process reported. */
export interface BackendRun {
  readonly tag: string;
  /** Turns acknowledged (sync returned), in order. */
  readonly acks: number[];
  /** Conflicts its syncs met and resolved. */
  conflicts: number;
  /** Error lines (`error <code> <message>`); none when it ended well. */
  readonly errors: string[];
  readonly exitCode: number | null;
}

/** Runs one backend process to its end. */
export function runBackend(url: string, dir: string, session: string, turns: number, tag: string): Promise<BackendRun> {
  const child = spawn(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', WORKER, url, dir, session, String(turns), tag], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const run = { tag, acks: [] as number[], conflicts: 0, errors: [] as string[], exitCode: null as number | null };
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const ack = /^ack \S+ (\d+) (\d+)$/u.exec(line);
      if (ack !== null) {
        run.acks.push(Number(ack[1]));
        run.conflicts += Number(ack[2]);
      } else if (line.startsWith('error ')) run.errors.push(line);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => run.errors.push(`stderr ${chunk}`));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ ...run, exitCode: code })));
}
