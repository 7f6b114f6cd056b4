// Shared helpers of the CLI tests: the corpus, temp repositories, running main() in-process, and directory snapshots.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/index.js';

export const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const SIMPLE_TRAJ = join(corpus, 'swe-agent', 'function_calling_simple.traj');
export const CLAUDE = join(corpus, 'claude-code', 'representative_messages.jsonl');
export const TAU = join(corpus, 'tau-bench-airline', 'gpt-4o-airline.jsonl');

/** A fresh temporary directory. */
export function tempDir(prefix = 'ctxgit-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The result of one CLI run. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `ctxgit <args>` in-process. */
export async function run(args: readonly string[], opts: { cwd?: string; env?: Record<string, string>; tty?: boolean } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s), isTTY: opts.tty === true, columns: 80 },
    cwd: opts.cwd ?? root,
    env: opts.env ?? {},
  });
  return { code, stdout, stderr };
}

/** Runs a command that must succeed and returns its parsed `--json` output. */
export async function runJson<T>(args: readonly string[]): Promise<T> {
  const r = await run([...args, '--json']);
  if (r.code !== 0) throw new Error(`ctxgit ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** Every file under `dir` with its size and content hash-free fingerprint (path:size:mtime), sorted; [] when missing. */
export function snapshot(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .flatMap((n) => {
      const p = join(dir, n);
      const st = statSync(p);
      return st.isDirectory() ? snapshot(p) : [`${p}:${st.size}:${st.mtimeMs}`];
    })
    .sort();
}

/** The first `n` lines of a file joined as a new file's text. */
export function firstLines(path: string, n: number): string {
  return `${readFileSync(path, 'utf8').split('\n').slice(0, n).join('\n')}\n`;
}
