// The built command as a child process (`node packages/cli/dist/bin.js`), on corpus files, including every error path;
// also the two documented entry points: the root script (`pnpm ctxgit` / `npm run ctxgit`) and the bin shim (`npx ctxgit`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/index.js';
import { errorCases } from './error-cases.js';
import type { ErrorFixture } from './error-cases.js';
import { CLAUDE, firstLines, root, SIMPLE_TRAJ, snapshot, TAU, tempDir } from './helpers.js';

const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');

interface Spawned {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function ctxgit(args: readonly string[], cwd = root): Spawned {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CTXGIT_REPO: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `ctxgit` without blocking, so that many runs proceed at once. */
function ctxgitAsync(args: readonly string[]): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, CTXGIT_REPO: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Maps with at most `limit` calls in flight; results in input order. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function json<T>(args: readonly string[]): T {
  const r = ctxgit([...args, '--json']);
  if (r.code !== 0) throw new Error(`ctxgit ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const COMMANDS = ['import', 'sessions', 'log', 'show', 'render', 'diff', 'stats', 'export', 'checkout', 'fork', 'merge', 'expand', 'verify'];

beforeAll(() => {
  if (existsSync(bin)) return;
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const r = spawnSync(tsc, ['-b', join(root, 'packages', 'cli', 'tsconfig.build.json')], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the CLI failed: ${r.stdout}${r.stderr}`);
});

describe('ctxgit as a child process', () => {
  it('documents every command and its options in --help', async () => {
    const top = ctxgit(['--help']);
    expect(top.code).toBe(0);
    for (const c of COMMANDS) expect(top.stdout).toMatch(new RegExp(`\\n  ${c}\\b`));
    const helps = await pool(COMMANDS, 8, (c) => ctxgitAsync([c, '--help']));
    for (const [i, c] of COMMANDS.entries()) {
      const h = helps[i] as Spawned;
      expect(h.code, c).toBe(0);
      expect(h.stdout, c).toContain(`Usage: ctxgit ${c}`);
      expect(h.stdout, c).toContain('--repo <dir>');
      expect(h.stdout, c).toContain('--json');
    }
    expect(ctxgit(['import', '--help']).stdout).toMatch(/--format <format>[\s\S]*--session <name>[\s\S]*--model[\s\S]*--budget <tokens>[\s\S]*--clock-step/);
    expect(ctxgit(['help', 'log']).stdout).toContain('Usage: ctxgit log');
    expect(ctxgit(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('imports every corpus format and reads it back', () => {
    const dir = tempDir();
    const repo = join(dir, 'repo');
    const tau = join(dir, 'airline.jsonl');
    writeFileSync(tau, firstLines(TAU, 2));
    expect(json(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--no-fsync'])).toEqual({ sessions: [{ id: 'function_calling_simple', nodes: 12, commits: 5 }] });
    expect(json(['import', CLAUDE, '--format', 'claude-code', '--repo', repo, '--session', 'cc'])).toEqual({ sessions: [{ id: 'cc', nodes: 11, commits: 5 }] });
    expect(json(['import', tau, '--format', 'openai-chat', '--repo', repo, '--no-fsync'])).toEqual({
      sessions: [
        { id: 'airline-0', nodes: 32, commits: 15 },
        { id: 'airline-1', nodes: 12, commits: 5 },
      ],
    });
    const sessions = json<{ sessions: { id: string; commits: number }[] }>(['sessions', '--repo', repo]);
    expect(sessions.sessions.map((s) => [s.id, s.commits])).toEqual([
      ['airline-0', 15],
      ['airline-1', 5],
      ['cc', 5],
      ['function_calling_simple', 5],
    ]);
    const log = json<{ id: string; headNodeId: string }[]>(['log', '--session', 'cc', '--repo', repo]);
    expect(log).toHaveLength(5);
    const exported = ctxgit(['export', '--session', 'cc', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--repo', repo]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { commit: string; request: unknown });
    expect(lines.map((l) => l.commit)).toEqual(log.map((e) => e.id));
    expect(lines[2]?.request).toEqual(json(['render', log[2]?.id ?? '', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--repo', repo]));
    const stats = ctxgit(['stats', '--session', 'airline-0', '--repo', repo]);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/^#\s+commit\s+full\s+fed\s+window\s+prefix\s+items\n/);
    expect(json<{ ok: boolean }>(['verify', '--repo', repo]).ok).toBe(true);
  });

  it('resolves --repo from $CTXGIT_REPO and then ./.ctxgit', () => {
    const dir = tempDir();
    const viaDefault = spawnSync(process.execPath, [bin, 'import', SIMPLE_TRAJ, '--format', 'swe-agent', '--no-fsync'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CTXGIT_REPO: '' } });
    expect(viaDefault.status).toBe(0);
    expect(existsSync(join(dir, '.ctxgit', 'ctxgit.json'))).toBe(true);
    const env = spawnSync(process.execPath, [bin, 'sessions', '--json'], { cwd: root, encoding: 'utf8', env: { ...process.env, CTXGIT_REPO: join(dir, '.ctxgit') } });
    expect((JSON.parse(env.stdout) as { sessions: { id: string }[] }).sessions.map((s) => s.id)).toEqual(['function_calling_simple']);
  });

  it('runs through the root script (`pnpm ctxgit`, here via npm run) and the bin shim (`npx ctxgit`)', () => {
    const script = spawnSync('npm', ['run', '--silent', 'ctxgit', '--', '--version'], { cwd: root, encoding: 'utf8' });
    expect(script.stdout).toBe(`${VERSION}\n`);
    const shim = join(root, 'node_modules', '.bin', 'ctxgit');
    if (existsSync(shim)) expect(spawnSync(shim, ['--version'], { cwd: root, encoding: 'utf8' }).stdout).toBe(`${VERSION}\n`);
  });

  it('fails every error path with one line on stderr and a non-zero exit, writing nothing', async () => {
    const dir = tempDir();
    const repo = join(dir, 'repo');
    json(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'main', '--repo', repo, '--no-fsync']);
    json(['fork', 'alt', '--session', 'main', '--repo', repo]);
    const log = json<{ id: string; headNodeId: string }[]>(['log', '--session', 'main', '--repo', repo]);
    const fixture: ErrorFixture = { dir, repo, commit: log[0]?.id ?? '', node: log[0]?.headNodeId ?? '' };
    const cases = errorCases(fixture);
    const before = cases.map((c) => c.untouched.map(snapshot));
    const runs = await pool(cases, 8, (c) => ctxgitAsync(c.args));
    for (const [i, c] of cases.entries()) {
      const r = runs[i] as Spawned;
      expect({ name: c.name, exit: r.code, stdout: r.stdout }).toEqual({ name: c.name, exit: c.exit, stdout: '' });
      expect(r.stderr, c.name).toMatch(new RegExp(`^ctxgit: [^\\n]+ \\[${c.code}\\]\\n$`));
      expect(c.untouched.map(snapshot), c.name).toEqual(before[i]);
    }
  });
});
