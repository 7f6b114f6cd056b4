import { CorruptObjectError, GitIoError, ObjectNotFoundError, ObjectTypeError } from '../../../git/errors.js';
import type { GitContext } from '../../../git/git-context.js';
import type { VerifyCounts, VerifyIssue, VerifyIssueCode } from '../verify-report.js';

/** The state of one verification run: a fresh read context, the issues found, the counts. */
export interface Verifier {
  readonly git: GitContext;
  readonly issues: VerifyIssue[];
  readonly counts: { -readonly [K in keyof VerifyCounts]: VerifyCounts[K] };
}

export function createVerifier(git: GitContext): Verifier {
  return { git, issues: [], counts: { refs: 0, dagCommits: 0, nodes: 0, sessions: 0, contextCommits: 0, items: 0, summaries: 0, origins: 0, objects: 0 } };
}

export function report(v: Verifier, code: VerifyIssueCode, path: string, message: string, severity: 'error' | 'warning' = 'error'): void {
  v.issues.push({ code, severity, path, message });
}

/** The issue code for an error thrown while reading `path`. */
function codeOf(err: unknown): VerifyIssueCode {
  if (err instanceof GitIoError) return 'E_VERIFY_IO';
  if (err instanceof ObjectNotFoundError || err instanceof ObjectTypeError || err instanceof CorruptObjectError) return 'E_VERIFY_OBJECT_CORRUPT';
  return 'E_VERIFY_OBJECT_CORRUPT';
}

/** Runs a read; a failure becomes an issue at `path` and the result is undefined. */
export async function guard<T>(v: Verifier, path: string, what: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    report(v, codeOf(err), path, `${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}


const decoder = new TextDecoder('utf-8', { fatal: true });

/** Parses UTF-8 JSON, or returns why not. */
export function parseJson(bytes: Uint8Array): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(decoder.decode(bytes)) as unknown };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
