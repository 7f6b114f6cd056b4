import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
}

/** Spawns `node --conditions=@ctxgit/source --import tsx turn-worker.ts <gitdir> <session> <label> <turns>`. */
export function startWorker(gitdir: string, session: string, label: string, turns: number): WorkerRun {
  const child = spawn(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', WORKER, gitdir, session, label, String(turns)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
      } else if (line.startsWith('commit ')) {
        commits.push(line.slice(7));
      } else if (line.startsWith('conflict ')) conflicts.push(line.slice(9));
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { acks, commits, conflicts, done };
}

const BUILD_DIR = fileURLToPath(new URL('./.build/', import.meta.url));
const FAST_WORKER = join(BUILD_DIR, 'crash-worker.mjs');

/**
 * Makes what the fast workers run: dist of every package (`tsc -b tsconfig.build.json`: nothing to do when `npm test`
 * built it before vitest, as its `check` script does) and `fixtures/crash-worker.ts` transpiled to JavaScript in
 * `.build/` (git-ignored), where `@ctxgit/commit` resolves to the package's dist (self-reference).
 */
export async function buildFastWorker(): Promise<void> {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const built = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
  if (built.code !== 0) throw new Error(`tsc -b tsconfig.build.json failed:\n${built.output}`);
  const ts = (await import('typescript')).default;
  const source = readFileSync(fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url)), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  mkdirSync(BUILD_DIR, { recursive: true });
  writeFileSync(join(BUILD_DIR, '.gitignore'), '*\n');
  writeFileSync(FAST_WORKER, js);
}

/** One line of a fast worker: `ready`, `begin <op>`, `end <op>`, `ack <session> <id>`, `commit <session> <oid> [folded]`, … */
export type WorkerLine = readonly string[];

/** A fast worker process (built JavaScript, plain node): loaded, waiting for its arguments. */
export interface FastWorker {
  readonly ready: Promise<void>;
  /** Starts it: `["cycle", gitdir, label]` or `["turns", gitdir, session, label, turns]`. */
  go(args: readonly string[]): void;
  /** Every line so far, split on spaces. */
  readonly lines: WorkerLine[];
  /** Called for each line as it arrives. */
  onLine: ((line: WorkerLine) => void) | undefined;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(): void;
}

/** Spawns `node .build/crash-worker.mjs` (see {@link buildFastWorker}). */
export function startFastWorker(): FastWorker {
  const child = spawn(process.execPath, [FAST_WORKER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
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
