import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '@ctxgit/dag';
import type { Repo } from '@ctxgit/commit';
import { openRepo } from '@ctxgit/commit';
import { CliError } from './errors.js';

/** Name of the file that marks a git directory as a ctxgit repository. */
const MARKER = 'ctxgit.json';

/**
 * Opens a repository that must already exist, without creating or changing anything: refuses a missing or
 * empty directory and a directory that is not a ctxgit repository.
 */
export async function openExisting(dir: string, clock?: Clock): Promise<Repo> {
  if (!existsSync(dir) || !statSync(dir).isDirectory() || readdirSync(dir).length === 0) {
    throw new CliError('E_CLI_NO_REPO', `no ctxgit repository at ${dir}; create one with \`ctxgit import <file> --repo ${dir}\``, { dir });
  }
  if (!existsSync(join(dir, MARKER))) {
    throw new CliError('E_CLI_NO_REPO', `${dir} is not a ctxgit repository (no ${MARKER}); pass --repo <dir> of a repository ctxgit created`, { dir });
  }
  return openRepo({ dir, ...(clock === undefined ? {} : { clock }) });
}

/** Opens a repository for writing, creating it when the directory is missing or empty; `fsync: false` trades crash safety for speed; `clock` dates its writes (default: now). */
export async function openOrCreate(dir: string, opts: { readonly fsync?: boolean; readonly clock?: Clock } = {}): Promise<Repo> {
  return openRepo({ dir, ...(opts.fsync === false ? { fsync: false } : {}), ...(opts.clock === undefined ? {} : { clock: opts.clock }) });
}
