import type { AuthCallback, Remote } from '@ctxgit/commit';
import type { CliIo } from './io.js';

/**
 * Credentials for a git server from the environment, never from the command line (which `ps` and shell history
 * show): `CTXGIT_REMOTE_USER` and `CTXGIT_REMOTE_PASSWORD` (a password or token); none when unset.
 */
export function envAuth(io: CliIo): AuthCallback | undefined {
  const username = io.env['CTXGIT_REMOTE_USER'];
  const password = io.env['CTXGIT_REMOTE_PASSWORD'];
  if (username === undefined && password === undefined) return undefined;
  return () => ({ username: username ?? 'ctxgit', ...(password === undefined ? {} : { password }) });
}

/** The remote of a transfer command: the URL argument (credentials come from {@link envAuth}). */
export function remoteOf(url: string): Remote {
  return { url };
}

/** Commander's collector of a repeated option (`--session a --session b`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
