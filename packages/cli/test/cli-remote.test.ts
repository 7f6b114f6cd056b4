import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openRepo } from '@ctxgit/commit';
import { startGitServer } from '../../commit/test/remote/git-server.js';
import type { GitServer } from '../../commit/test/remote/git-server.js';
import { run, tempDir } from './helpers.js';

let server: GitServer;
beforeAll(async () => {
  server = await startGitServer({ credentials: 'bot:cli-Pa55word' });
});
afterAll(async () => {
  await server.stop();
});

test('ctxgit push, clone and fetch through a git server, credentials from the environment only', async () => {
  const dir = join(tempDir(), 'a.git');
  const repo = await openRepo({ dir, fsync: false });
  const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
  await s.append({ role: 'user', output: 'hello' });
  const first = await s.commit();
  const env = { CTXGIT_REMOTE_USER: 'bot', CTXGIT_REMOTE_PASSWORD: 'cli-Pa55word' };

  const refused = await run(['push', server.url, '--repo', dir]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('E_REMOTE_AUTH');
  const pushed = await run(['push', server.url, '--repo', dir, '--json'], { env });
  expect(pushed.code).toBe(0);
  expect((JSON.parse(pushed.stdout) as { pushed: string[] }).pushed).toContain('refs/ctxgit/sessions/chat/context');

  const copy = join(tempDir(), 'b.git');
  const cloned = await run(['clone', server.url, '--repo', copy, '--session', 'chat'], { env });
  expect(cloned.code).toBe(0);
  expect(cloned.stdout).toContain('fetched 1 sessions (chat)');
  const log = await run(['log', '--repo', copy, '--session', 'chat', '--json']);
  expect(log.stdout).toContain(first.id);

  await s.append({ role: 'assistant', output: 'hi' });
  const second = await s.commit();
  expect((await run(['push', server.url, '--repo', dir], { env })).code).toBe(0);
  const fetched = await run(['fetch', server.url, '--repo', copy, '--json'], { env });
  expect(fetched.code).toBe(0);
  expect((JSON.parse(fetched.stdout) as { updated: string[] }).updated).toContain('refs/ctxgit/sessions/chat/context');
  expect((await run(['log', '--repo', copy, '--session', 'chat', '--json'])).stdout).toContain(second.id);
  for (const out of [refused, pushed, cloned, fetched]) expect(`${out.stdout}${out.stderr}`).not.toContain('cli-Pa55word');
});
