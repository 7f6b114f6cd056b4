import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BRIDGE = fileURLToPath(new URL('./git-http-bridge.mjs', import.meta.url));

/** A bare repository served by `git http-backend` behind a node:http bridge on 127.0.0.1, for tests. */
export interface GitServer {
  /** The URL of the served repository. */
  readonly url: string;
  /** Its git directory on disk (read it with plain git). */
  readonly gitdir: string;
  /** Makes the next receive-pack POST kill the bridge: with half the pack sent to git, or once git answered. */
  failNextPush(when: 'request' | 'response'): void;
  /** Resolves once the bridge process is gone (after a failNextPush, or a kill). */
  exited(): Promise<void>;
  /** Kills the bridge (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts the bridge again on the same port. */
  restart(): Promise<void>;
  /** Stops the bridge. */
  stop(): Promise<void>;
}

/** Runs git with the test's environment (no user or system config). */
export function git(gitdir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() } });
}

/** `git fsck --strict` of a git directory: its exit status and the lines that are not notices (none when clean). */
export function fsck(gitdir: string): { readonly status: number | null; readonly problems: readonly string[] } {
  const run = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress'], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  return { status: run.status, problems: `${run.stdout}${run.stderr}`.split('\n').filter((l) => l !== '' && !l.startsWith('notice:')) };
}

function startBridge(root: string, port: number, credentials: string | undefined): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [BRIDGE, root, String(port), ...(credentials === undefined ? [] : [credentials])], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /listening (\d+)/u.exec(out);
      if (m !== null) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`the git bridge exited (${String(code)}) before listening: ${out}`)));
  });
}

/**
 * Creates a bare repository (receive-pack enabled) in a temp directory and serves it; the test stops it.
 *
 * @param opts - `credentials` as `user:password` to require HTTP basic auth
 */
export async function startGitServer(opts: { credentials?: string } = {}): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'ctxgit-server-'));
  const gitdir = join(root, 'ctx.git');
  execFileSync('git', ['init', '--bare', '--quiet', gitdir]);
  git(gitdir, ['config', 'http.receivepack', 'true']);
  let { child, port } = await startBridge(root, 0, opts.credentials);
  const exited = (): Promise<void> => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    url: `http://127.0.0.1:${port}/ctx.git`,
    gitdir,
    failNextPush: (when) => child.send({ fail: when }),
    exited,
    kill: async () => {
      child.kill('SIGKILL');
      await exited();
    },
    restart: async () => {
      ({ child, port } = await startBridge(root, port, opts.credentials));
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited();
    },
  };
}
