// Runs the small examples as a user would (tsx, @ctxgit/source condition), the minimal one against the fake provider.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../chat-backend/test/fake-provider.js';
import type { FakeProvider } from '../chat-backend/test/fake-provider.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const hasGit = spawnSync('git', ['--version']).status === 0;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an example without blocking (the fake provider answers from this process). */
function example(file: string, cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@ctxgit/source', '--import', tsx, join(root, 'examples', file)], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => fake.close());

describe('examples', () => {
  it('minimal.ts: under 40 lines, two turns through the Anthropic SDK, valid requests; a second run continues the chat', async () => {
    expect(readFileSync(join(root, 'examples', 'minimal.ts'), 'utf8').trimEnd().split('\n').length).toBeLessThan(40);
    const cwd = mkdtempSync(join(tmpdir(), 'ctxgit-minimal-'));
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    fake.script('2, 3 and 5.', '10.');
    const first = await example('minimal.ts', cwd, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^2, 3 and 5\.\n10\.\n/);
    expect(first.stdout).toContain("basis: 'measured'");
    expect(first.stdout).toContain('chat turn 2:');
    expect(existsSync(join(cwd, '.ctxgit', 'ctxgit.json'))).toBe(true);
    const sent = fake.requests.slice(-2);
    expect(sent.map((r) => r.issues)).toEqual([[], []]);
    expect((sent[1]?.body as { messages: unknown[] }).messages).toHaveLength(3);
    fake.script('7.', '17.');
    const second = await example('minimal.ts', cwd, env);
    expect(second.code).toBe(0);
    expect((fake.requests.at(-1)?.body as { messages: unknown[] }).messages).toHaveLength(7);
  });

  it('branch-and-merge.ts: edit as a sibling, switch back, fork, merge with two parents', async () => {
    const r = await example('branch-and-merge.ts', root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('edited question is < 2/2 >: (answer to: Add a food market instead.)');
    expect(lines[1]).toMatch(/^back on < 1\/2 >, commit [0-9a-f]{12}$/);
    expect(lines[2]).toMatch(/^merge [0-9a-f]{12} has 2 parents, \d+ items$/);
    expect(lines.slice(3).map((l) => l.split(' ').slice(1, 4).join(' '))).toEqual(['main turn 4:', 'main turn 3:', 'main turn 2:', 'main turn 1:']);
  });

  it.skipIf(!hasGit)('inspect-with-git.sh: finds sessions, items and the original nodes with plain git', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxgit-inspect-'));
    const repo = join(dir, 'repo.git');
    const traj = join(root, '..', 'shared', 'corpus', 'swe-agent', 'function_calling_simple.traj');
    const imported = spawnSync(process.execPath, [join(root, 'packages', 'cli', 'dist', 'bin.js'), 'import', traj, '--format', 'swe-agent', '--session', 'run', '--repo', repo, '--no-fsync'], { encoding: 'utf8' });
    expect(imported.status, imported.stderr).toBe(0);
    const r = spawnSync('sh', [join(root, 'examples', 'inspect-with-git.sh'), repo], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = r.stdout;
    expect(out).toContain('== sessions (refs/ctxgit/sessions/<session>/context)\nrun\n');
    expect(out).toMatch(/"model":"openai:gpt-4o"/);
    expect(out.match(/^[0-9a-f]{7,} run turn \d+:/gm)).toHaveLength(5);
    expect(out).toMatch(/Head-Node: [0-9a-f]{16}\nRules-Version: .+\nTotal-Tokens: \d+/);
    const sections = out.split('\n== ');
    const byOid = sections.find((s) => s.startsWith('its original DAG node'))?.split('\n')[1];
    const byPath = sections.find((s) => s.startsWith("the same node in the session's DAG tree"))?.split('\n')[1];
    const indexed = sections.find((s) => s.startsWith('the commit index'));
    expect(indexed).toMatch(/\nrun turn \d+:/);
    expect(byOid).toBeDefined();
    expect(byPath).toBe(byOid);
    expect(JSON.parse(byOid ?? '') as { role: string }).toMatchObject({ role: 'user' });
  });
});
