import { isAbsolute, resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';

/** Options every command takes. */
export interface CommonOptions {
  readonly repo?: string;
  readonly json?: boolean;
}

/** Directory of the repository when `--repo` and `CTXGIT_REPO` are both absent. */
export const DEFAULT_REPO = '.ctxgit';

/** Adds `--repo` and `--json` to a command. */
export function withCommon(cmd: Command): Command {
  return cmd
    .addOption(new Option('--repo <dir>', `repository directory (default: $CTXGIT_REPO, else ./${DEFAULT_REPO})`))
    .addOption(new Option('--json', 'print one JSON document instead of text'));
}

/** The absolute repository path from `--repo`, `CTXGIT_REPO` or the default. */
export function repoPath(io: CliIo, opts: CommonOptions): string {
  const fromEnv = io.env['CTXGIT_REPO'];
  const dir = opts.repo ?? (fromEnv === undefined || fromEnv === '' ? DEFAULT_REPO : fromEnv);
  if (dir === '') throw new CliError('E_CLI_USAGE', '--repo must not be empty', {}, { exitCode: 2 });
  return isAbsolute(dir) ? dir : resolve(io.cwd, dir);
}

/** Parses a positive integer option value or throws a usage error naming the option. */
export function positiveInt(option: string): (value: string) => number {
  return (value: string): number => {
    const n = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1) {
      throw new CliError('E_CLI_USAGE', `${option} must be a positive integer, got ${JSON.stringify(value)}`, { option, value }, { exitCode: 2 });
    }
    return n;
  };
}

/** Parses a non-negative integer option value or throws a usage error naming the option. */
export function nonNegativeInt(option: string): (value: string) => number {
  return (value: string): number => {
    const n = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n)) {
      throw new CliError('E_CLI_USAGE', `${option} must be a non-negative integer, got ${JSON.stringify(value)}`, { option, value }, { exitCode: 2 });
    }
    return n;
  };
}
