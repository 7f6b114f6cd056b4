import { Option } from 'commander';
import type { Command } from 'commander';
import type { Clock } from '@ctxgit/dag';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';

/** The environment variable reproducible builds use for a fixed time: whole seconds since the epoch. */
export const SOURCE_DATE_EPOCH = 'SOURCE_DATE_EPOCH';

/** An ISO 8601 date, or date and time with an optional zone: `2026-01-01`, `2026-01-01T12:00:00Z`, `2026-01-01T12:00:00.5+01:00`. */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses a write date: whole seconds since the epoch (`1767225600`, optionally `@1767225600` as git writes it) or
 * an ISO 8601 date or date-time (`2026-01-01`, `2026-01-01T00:00:00Z`; a time without a zone is UTC).
 *
 * @param value - the text of `--date` or of `SOURCE_DATE_EPOCH`
 * @param source - where it came from, named in the error
 * @returns milliseconds since the epoch
 * @throws {@link CliError} `E_CLI_BAD_DATE` (exit code 2) for anything else, a date before 1970 or after 9999
 * @example
 * ```ts
 * parseWriteDate('1767225600', '--date'); // 1767225600000
 * parseWriteDate('2026-01-01T00:00:00Z', '--date'); // 1767225600000
 * ```
 */
export function parseWriteDate(value: string, source: string): number {
  const text = value.trim();
  let ms = Number.NaN;
  if (/^@?\d{1,15}$/.test(text)) ms = Number(text.replace('@', '')) * 1000;
  else if (ISO.test(text)) {
    const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text) || !/[T ]/.test(text) ? text : `${text}Z`;
    ms = Date.parse(zoned.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  }
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31, 23, 59, 59)) throw badDate(source, value, 'seconds since the epoch or an ISO 8601 date (e.g. 2026-01-01T00:00:00Z)');
  return ms;
}

function badDate(source: string, value: string, expected: string): CliError {
  return new CliError('E_CLI_BAD_DATE', `${source} must be ${expected}, got ${JSON.stringify(value)}`, { source, value }, { exitCode: 2 });
}

/**
 * The clock of a command that writes: a fixed time from `--date`, else from `SOURCE_DATE_EPOCH` (a non-empty value),
 * else none (the repository's, the wall clock). With a fixed time, the same command on the same repository writes the
 * same commits, ids included, as git does with `GIT_COMMITTER_DATE`.
 *
 * @param io - the environment `SOURCE_DATE_EPOCH` is read from
 * @param date - the parsed `--date`, in ms since the epoch, when given
 * @returns the clock, or `undefined` for the wall clock
 * @throws {@link CliError} `E_CLI_BAD_DATE` when `SOURCE_DATE_EPOCH` is set to anything but whole seconds
 * @example
 * ```ts
 * const clock = writeClock({ ...io, env: { SOURCE_DATE_EPOCH: '1767225600' } }, undefined);
 * clock?.(); // 1767225600000
 * ```
 */
export function writeClock(io: CliIo, date: number | undefined): Clock | undefined {
  if (date !== undefined) return () => date;
  const env = io.env[SOURCE_DATE_EPOCH];
  if (env === undefined || env.trim() === '') return undefined;
  if (!/^\s*\d+\s*$/.test(env)) throw badDate(SOURCE_DATE_EPOCH, env, 'whole seconds since the epoch'); // as reproducible builds define it
  const ms = parseWriteDate(env, SOURCE_DATE_EPOCH);
  return () => ms;
}

/**
 * Adds `--date <when>` to a command that writes commits: see {@link writeClock}.
 *
 * @param cmd - the command
 * @returns the command
 * @example
 * ```ts
 * withDate(new Command('merge'));
 * ```
 */
export function withDate(cmd: Command): Command {
  return cmd.addOption(
    new Option('--date <when>', `date what this writes: seconds since the epoch or an ISO 8601 date (default: $${SOURCE_DATE_EPOCH}, else now)`).argParser((v: string) =>
      parseWriteDate(v, '--date'),
    ),
  );
}
