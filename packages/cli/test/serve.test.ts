// `ctxgit serve` as a child process (the sources through tsx): it binds loopback on the asked port, serves the viewer
// and its API over the repository, refuses writes, and says how to reach it; a missing repository is refused.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle } from '../../viewer/test/fixture.js';
import { root, run, SIMPLE_TRAJ, tempDir } from './helpers.js';

const bin = join(root, 'packages', 'cli', 'src', 'bin.ts');
let dir: string;
let child: ChildProcess;
let url: string;

/** Starts `ctxgit serve` and resolves with the URL it prints. */
function start(args: readonly string[]): Promise<string> {
  child = spawn(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', bin, 'serve', ...args], { cwd: root, env: { ...process.env, CTXGIT_REPO: '' } });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /ctxgit viewer on (http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    child.stderr?.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('exit', (code) => reject(new Error(`ctxgit serve exited ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  await ensureBundle();
  dir = join(tempDir(), 'repo');
  expect((await run(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', dir, '--session', 'simple', '--no-fsync'])).code).toBe(0);
  url = await start(['--repo', dir, '--port', '0']);
});
afterAll(() => {
  child?.kill('SIGTERM');
});

describe('ctxgit serve', () => {
  it('serves the viewer and its API on 127.0.0.1, read-only', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>ctxgit viewer</title>');
    const list = (await (await fetch(`${url}api/sessions`)).json()) as { sessions: { name: string; commits: number }[] };
    expect(list.sessions.map((s) => [s.name, s.commits])).toEqual([['simple', 5]]);
    expect((await fetch(`${url}api/sessions`, { method: 'POST' })).status).toBe(405);
  });

  it('refuses a directory that is not a repository, before listening', async () => {
    const r = await run(['serve', '--repo', tempDir(), '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('E_CLI_NO_REPO');
    expect((await run(['serve', '--repo', dir, '--port', 'x'])).code).toBe(2);
  });
});
