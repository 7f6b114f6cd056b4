// Repositories the viewer tests open: a corpus transcript imported with the real CLI (folds under a small budget),
// grown by the public API with a retried answer, an edited question, a fork and a merge; and a hostile transcript.
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '@ctxgit/cli';
import type { Repo } from '@ctxgit/commit';
import { openRepo } from '@ctxgit/commit';
import { build } from 'vite';
import { createViewer } from '../src/index.js';
import type { Viewer, ViewerOptions } from '../src/index.js';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const corpus = join(root, '..', 'shared', 'corpus');
export const EPS = join(corpus, 'swe-agent', 'ctf__crypto__eps.traj');
export const SIMPLE = join(corpus, 'swe-agent', 'function_calling_simple.traj');

/** A fresh temporary directory. */
export const tempDir = (prefix = 'ctxgit-viewer-'): string => mkdtempSync(join(tmpdir(), prefix));

/** Runs `ctxgit <args>` in-process; throws with its stderr on a non-zero exit. */
export async function ctxgit(args: readonly string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, cwd: root, env: {} });
  if (code !== 0) throw new Error(`ctxgit ${args.join(' ')} exited ${code}: ${err}`);
  return out;
}

/** What {@link buildCorpusRepo} made: the names and ids the tests look for. */
export interface CorpusRepo {
  readonly dir: string;
  /** The assistant node that has a retried sibling. */
  readonly retried: string;
  readonly retry: string;
  /** The user node that has an edited sibling. */
  readonly edited: string;
}

/**
 * `eps` (a SWE-agent CTF run, 6,000-token budget: it folds) and `simple`, imported by `ctxgit import`; then on `eps`
 * an answer retried and a question edited (each a sibling; the head is put back), a fork `eps-alt` at an early
 * answer, and `simple` merged into the fork.
 */
export async function buildCorpusRepo(): Promise<CorpusRepo> {
  const dir = join(tempDir(), 'repo');
  await ctxgit(['import', EPS, '--format', 'swe-agent', '--repo', dir, '--session', 'eps', '--budget', '6000', '--no-fsync']);
  await ctxgit(['import', SIMPLE, '--format', 'swe-agent', '--repo', dir, '--session', 'simple', '--no-fsync']);
  let now = Date.UTC(2024, 0, 2);
  const repo = await openRepo({ dir, clock: () => (now += 1000) });
  const s = await repo.openSession('eps');
  const head = await s.head();
  if (head === null) throw new Error('eps is empty');
  const branch: { id: string; role: string }[] = [];
  for (let id: string | undefined = head; id !== undefined; ) {
    const node = await repo.store.getNode(id);
    if (node === undefined) break;
    branch.unshift({ id: node.id, role: node.role });
    id = node.predecessor;
  }
  const answers = branch.filter((n) => n.role === 'assistant');
  const users = branch.filter((n) => n.role === 'user');
  const retried = answers.at(-2)?.id;
  const edited = users.at(-1)?.id;
  const early = answers[1]?.id;
  if (retried === undefined || edited === undefined || early === undefined) throw new Error('eps has too few turns');
  const retry = await s.retry(retried);
  await s.edit(edited, 'Try the other key first, then report what you find.');
  await s.checkout(head);
  await s.fork('eps-alt', { at: early });
  await repo.merge({ target: 'eps-alt', peers: ['simple'], instruction: 'Combine both findings.' });
  return { dir, retried, retry: retry.id, edited };
}

/** Text a hostile transcript holds: markup, script URLs, entities and bidi overrides. It must render as text. */
export const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<a href="javascript:window.__pwned=\'link\'">click me</a> [md](javascript:window.__pwned=1)',
  '&lt;b&gt;not bold&lt;/b&gt; &amp;amp; &#x3C;svg onload=alert(1)&#x3E;',
  'user\u202Egnp.exe \u2066isolate\u2069 \u200Bzero-width',
].join('\n');

/** A session whose every message, tool name and argument is hostile; committed, so every view shows it. */
export async function buildHostileRepo(): Promise<{ readonly dir: string; readonly repo: Repo }> {
  const dir = join(tempDir(), 'hostile');
  let now = Date.UTC(2024, 0, 3);
  const repo = await openRepo({ dir, clock: () => (now += 1000) });
  const s = await repo.createSession('hostile', { model: 'anthropic:claude-sonnet-4-5' });
  await s.append({ role: 'system', output: `${HOSTILE}\nYou are helpful.` });
  await s.append({ role: 'user', output: HOSTILE });
  await s.commit();
  const a = await s.append({ role: 'assistant', output: HOSTILE });
  await s.append({ role: 'tool', name: 'bash', input: { cmd: HOSTILE }, output: HOSTILE, caller: a.id });
  await s.append({ role: 'user', output: `again ${HOSTILE}` });
  await s.commit();
  return { dir, repo };
}

/** A viewer on an ephemeral loopback port. */
export interface Served {
  readonly url: string;
  readonly viewer: Viewer;
  close(): Promise<void>;
}

/** Builds the front-end bundle when it is missing (`npm test` builds it first; a lone vitest run may not have). */
export async function ensureBundle(): Promise<void> {
  if (existsSync(join(root, 'packages', 'viewer', 'dist', 'web', 'index.html'))) return;
  await build({ configFile: join(root, 'packages', 'viewer', 'web', 'vite.config.ts'), logLevel: 'warn' });
}

/** Serves `createViewer(options)` on 127.0.0.1, any free port. */
export async function serve(options: ViewerOptions): Promise<Served> {
  await ensureBundle();
  const viewer = createViewer(options);
  const server: Server = createServer(viewer.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    viewer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        viewer.close();
        server.closeAllConnections();
        server.close((err) => (err === undefined ? resolve() : reject(err)));
      }),
  };
}
