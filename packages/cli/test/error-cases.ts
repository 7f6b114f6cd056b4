// Every error path of the CLI, shared by the in-process and the child-process tests: each must exit non-zero with
// one line on stderr naming the error code, print nothing on stdout, and leave the repository byte for byte as it was.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUDE, SIMPLE_TRAJ } from './helpers.js';

/** One failing invocation. */
export interface ErrorCase {
  readonly name: string;
  readonly args: readonly string[];
  /** Expected exit code. */
  readonly exit: number;
  /** Expected error code in the message. */
  readonly code: string;
  /** Directories that must not change (or, when missing, must not be created). */
  readonly untouched: readonly string[];
}

/** Fixtures the cases run against: `repo` holds session `main` (SIMPLE_TRAJ, 5 commits) with a fork `alt`. */
export interface ErrorFixture {
  readonly dir: string;
  readonly repo: string;
  readonly commit: string;
  readonly node: string;
}

/** Writes the files the cases read (an empty file, a non-repository directory, garbage). */
export function errorFiles(dir: string): { empty: string; garbage: string; notRepo: string; missingRepo: string } {
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '');
  const garbage = join(dir, 'garbage.traj');
  writeFileSync(garbage, '{"history": 12}');
  const notRepo = join(dir, 'not-a-repo');
  mkdirSync(notRepo, { recursive: true });
  writeFileSync(join(notRepo, 'notes.txt'), 'hello');
  return { empty, garbage, notRepo, missingRepo: join(dir, 'missing-repo') };
}

/** The cases, against a fixture. */
export function errorCases(f: ErrorFixture): ErrorCase[] {
  const files = errorFiles(f.dir);
  const fresh = join(f.dir, 'fresh-repo');
  const r = ['--repo', f.repo];
  const imp = (file: string, ...rest: string[]): string[] => ['import', file, '--repo', fresh, ...rest];
  return [
    { name: 'import: missing file', args: imp(join(f.dir, 'nope.traj'), '--format', 'swe-agent'), exit: 1, code: 'E_CLI_READ_FILE', untouched: [fresh] },
    { name: 'import: a directory as file', args: imp(f.dir, '--format', 'swe-agent'), exit: 1, code: 'E_CLI_READ_FILE', untouched: [fresh] },
    { name: 'import: unknown format', args: imp(SIMPLE_TRAJ, '--format', 'csv'), exit: 2, code: 'E_CLI_USAGE', untouched: [fresh] },
    { name: 'import: no --format, and a file of no known shape', args: imp(files.garbage), exit: 2, code: 'E_CLI_FORMAT', untouched: [fresh] },
    { name: 'import: wrong format', args: imp(SIMPLE_TRAJ, '--format', 'claude-code'), exit: 1, code: 'E_DAG_MALFORMED_TRANSCRIPT', untouched: [fresh] },
    { name: 'import: claude log as openai-chat', args: imp(CLAUDE, '--format', 'openai-chat'), exit: 1, code: 'E_DAG_MALFORMED_TRANSCRIPT', untouched: [fresh] },
    { name: 'import: malformed trajectory', args: imp(files.garbage, '--format', 'swe-agent'), exit: 1, code: 'E_DAG_MALFORMED_TRANSCRIPT', untouched: [fresh] },
    { name: 'import: empty file', args: imp(files.empty, '--format', 'openai-chat'), exit: 1, code: 'E_CLI_FORMAT', untouched: [fresh] },
    { name: 'import: bad --budget', args: imp(SIMPLE_TRAJ, '--format', 'swe-agent', '--budget', '-5'), exit: 2, code: 'E_CLI_USAGE', untouched: [fresh] },
    { name: 'import: zero --budget', args: imp(SIMPLE_TRAJ, '--format', 'swe-agent', '--budget', '0'), exit: 2, code: 'E_CLI_USAGE', untouched: [fresh] },
    { name: 'import: unknown model', args: imp(SIMPLE_TRAJ, '--format', 'swe-agent', '--model', 'acme:nope'), exit: 1, code: 'E_TOKENIZE_UNKNOWN_MODEL', untouched: [fresh] },
    { name: 'import: invalid session name', args: imp(SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'a..b'), exit: 1, code: 'E_GIT_INVALID_NAME', untouched: [fresh] },
    { name: 'import: budget too small to fold into', args: imp(SIMPLE_TRAJ, '--format', 'swe-agent', '--budget', '300'), exit: 1, code: 'E_RULES_OVER_BUDGET', untouched: [fresh] },
    { name: 'import: budget too small, into an existing repository', args: ['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'tiny', '--budget', '300', ...r], exit: 1, code: 'E_RULES_OVER_BUDGET', untouched: [f.repo] },
    { name: 'import: session exists', args: ['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'main', ...r], exit: 1, code: 'E_CLI_SESSION_EXISTS', untouched: [f.repo] },
    { name: 'import: into a directory that is not a repository', args: ['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', files.notRepo], exit: 1, code: 'E_COMMIT_NOT_CTXGIT_REPO', untouched: [files.notRepo] },
    { name: 'log: missing repository', args: ['log', '--repo', files.missingRepo], exit: 1, code: 'E_CLI_NO_REPO', untouched: [files.missingRepo] },
    { name: 'log: not a repository', args: ['log', '--repo', files.notRepo], exit: 1, code: 'E_CLI_NO_REPO', untouched: [files.notRepo] },
    { name: 'log: unknown session', args: ['log', '--session', 'nope', ...r], exit: 1, code: 'E_CLI_UNKNOWN_SESSION', untouched: [f.repo] },
    { name: 'log: ambiguous session', args: ['log', ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'sessions: missing repository', args: ['sessions', '--repo', files.missingRepo], exit: 1, code: 'E_CLI_NO_REPO', untouched: [files.missingRepo] },
    { name: 'show: unknown commit', args: ['show', 'a'.repeat(40), ...r], exit: 1, code: 'E_CLI_UNKNOWN_COMMIT', untouched: [f.repo] },
    { name: 'show: not a commit id', args: ['show', 'HEAD~1', ...r], exit: 2, code: 'E_CLI_UNKNOWN_COMMIT', untouched: [f.repo] },
    { name: 'show: no commit argument', args: ['show', ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'render: no --provider', args: ['render', f.commit, ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'render: unknown provider', args: ['render', f.commit, '--provider', 'gemini', ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'render: unknown commit', args: ['render', 'b'.repeat(40), '--provider', 'anthropic', ...r], exit: 1, code: 'E_CLI_UNKNOWN_COMMIT', untouched: [f.repo] },
    { name: 'render: bad --max-tokens', args: ['render', f.commit, '--provider', 'anthropic', '--max-tokens', 'lots', ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'diff: unknown commit', args: ['diff', f.commit, 'c'.repeat(40), ...r], exit: 1, code: 'E_CLI_UNKNOWN_COMMIT', untouched: [f.repo] },
    { name: 'diff: one argument', args: ['diff', f.commit, ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'stats: unknown session', args: ['stats', '--session', 'nope', ...r], exit: 1, code: 'E_CLI_UNKNOWN_SESSION', untouched: [f.repo] },
    { name: 'export: no --provider', args: ['export', '--session', 'main', ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'export: unknown session', args: ['export', '--session', 'nope', '--provider', 'anthropic', ...r], exit: 1, code: 'E_CLI_UNKNOWN_SESSION', untouched: [f.repo] },
    { name: 'checkout: unknown node', args: ['checkout', 'deadbeefdeadbeef', '--session', 'main', ...r], exit: 1, code: 'E_CLI_UNKNOWN_NODE', untouched: [f.repo] },
    { name: 'fork: name taken', args: ['fork', 'alt', '--session', 'main', ...r], exit: 1, code: 'E_COMMIT_SESSION_EXISTS', untouched: [f.repo] },
    { name: 'fork: invalid name', args: ['fork', 'bad name\u0007', '--session', 'main', ...r], exit: 1, code: 'E_GIT_INVALID_NAME', untouched: [f.repo] },
    { name: 'fork: unknown fork point', args: ['fork', 'alt2', '--session', 'main', '--at', 'nope', ...r], exit: 1, code: 'E_CLI_UNKNOWN_NODE', untouched: [f.repo] },
    { name: 'merge: into itself', args: ['merge', 'main', '--session', 'main', ...r], exit: 1, code: 'E_COMMIT_SELF_MERGE', untouched: [f.repo] },
    { name: 'merge: bad --date', args: ['merge', 'alt', '--session', 'main', '--date', 'tomorrow', ...r], exit: 2, code: 'E_CLI_BAD_DATE', untouched: [f.repo] },
    { name: 'merge: unknown peer', args: ['merge', 'nope', '--session', 'main', ...r], exit: 1, code: 'E_CLI_UNKNOWN_SESSION', untouched: [f.repo] },
    { name: 'expand: unknown summary', args: ['expand', 'sm_nope', '--session', 'main', ...r], exit: 1, code: 'E_COMMIT_UNKNOWN_ITEM', untouched: [f.repo] },
    { name: 'verify: missing repository', args: ['verify', '--repo', files.missingRepo], exit: 1, code: 'E_CLI_NO_REPO', untouched: [files.missingRepo] },
    { name: 'verify: a token that is not an oid', args: ['verify', '--previous', 'zzz', '--record', ...r], exit: 1, code: 'E_COMMIT_INVALID_OPTION', untouched: [f.repo] },
    { name: 'unknown command', args: ['frobnicate', ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'unknown option', args: ['log', '--colour', ...r], exit: 2, code: 'E_CLI_USAGE', untouched: [f.repo] },
    { name: 'empty --repo', args: ['log', '--repo', ''], exit: 2, code: 'E_CLI_USAGE', untouched: [] },
  ];
}
