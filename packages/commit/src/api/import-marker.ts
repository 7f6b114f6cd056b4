import { canonicalJson } from '@ctxgit/dag';
import { InvalidOptionError } from '../errors.js';
import { compareAndSwapRef } from '../git/compare-and-swap-ref.js';
import { deleteRef } from '../git/delete-ref.js';
import type { GitContext } from '../git/git-context.js';
import { listRefs } from '../git/list-refs.js';
import { readCommitObject } from '../git/read-commit-object.js';
import { readPath } from '../git/read-path.js';
import { readBlob } from '../git/read-blob.js';
import { readRef } from '../git/read-ref.js';
import { writeBlob } from '../git/write-blob.js';
import { writeCommit } from '../git/write-commit.js';
import { writeTree } from '../git/write-tree.js';
import { importRef, IMPORTS_PREFIX, sessionOfRefComponent } from '../store/refs.js';
import { Repo } from './repo.js';
import { validateRefComponent } from '../git/validate-ref-name.js';

/** Prefix of the import markers: `refs/ctxgit/imports/<session>` exists while an import of that session runs. */
export { IMPORTS_PREFIX } from '../store/refs.js';

/** The file of a marker commit's tree. */
export const IMPORT_MARKER_FILE = 'import.json';

/** An import that was started and has not finished (its marker is still set). */
export interface IncompleteImport {
  /** The session being imported. */
  readonly session: string;
  /** What resumes it, as the importer wrote it (for `ctxgit import`: the same command line). */
  readonly resume: string;
}

/** The marker ref of `session`'s import. */
export function importMarkerRef(session: string): string {
  return importRef(session);
}

/** The `{ format, session, resume }` record of a marker commit, or undefined when it is not one. */
export async function readImportMarker(ctx: GitContext, oid: string): Promise<IncompleteImport | undefined> {
  const commit = await readCommitObject(ctx, oid);
  const blob = await readPath(ctx, commit.tree, [IMPORT_MARKER_FILE]);
  if (blob === undefined) return undefined;
  const parsed: unknown = JSON.parse(Buffer.from(await readBlob(ctx, blob)).toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const r = parsed as Record<string, unknown>;
  return r['format'] === 1 && typeof r['session'] === 'string' && typeof r['resume'] === 'string' ? { session: r['session'], resume: r['resume'] } : undefined;
}

function gitOf(repo: unknown): GitContext {
  let isRepo = false;
  try {
    isRepo = repo instanceof Repo;
  } catch {
    isRepo = false; // a revoked proxy, a throwing getPrototypeOf trap
  }
  if (!isRepo) throw new InvalidOptionError('repo', typeof repo, 'a Repo from openRepo');
  return (repo as Repo).git;
}

function checkText(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '' || value.length > 10_000) throw new InvalidOptionError(name, typeof value === 'string' ? value.slice(0, 100) : typeof value, 'a non-empty string of at most 10,000 characters');
}

function checkSession(session: unknown): asserts session is string {
  checkText('session', session);
  validateRefComponent(session, 'session');
}

/**
 * Marks an import of `session` as started: sets `refs/ctxgit/imports/<session>` to a commit holding `import.json`
 * (`{ format: 1, session, resume }`), before the importer writes anything of the session. Until
 * {@link clearImportMarker} removes it, {@link verifyRepo} reports the session as an incomplete import
 * (`E_VERIFY_IMPORT_INCOMPLETE`, a warning) with `resume`, what to run to finish it. Marking again keeps one marker.
 *
 * @param repo - the repository
 * @param session - the session the import writes
 * @param resume - what resumes the import when it is killed (for `ctxgit import`: the same command line)
 * @throws {@link InvalidOptionError} for a `repo` that is not one, an empty or non-string `session` or `resume`; `InvalidNameError` for a session name that cannot be a ref component; the errors of `compareAndSwapRef`
 * @example
 * ```ts
 * await markImport(repo, 'chat-42', 'ctxgit import chat.jsonl --format openai-chat --session chat-42');
 * // ... write the session ...
 * await clearImportMarker(repo, 'chat-42');
 * ```
 */
export async function markImport(repo: Repo, session: string, resume: string): Promise<void> {
  const ctx = gitOf(repo);
  checkSession(session);
  checkText('resume', resume);
  const blob = await writeBlob(ctx, `${canonicalJson({ format: 1, session, resume })}\n`);
  const tree = await writeTree(ctx, [{ mode: '100644', path: IMPORT_MARKER_FILE, oid: blob, type: 'blob' }]);
  const who = { name: 'ctxgit', email: 'ctxgit@localhost', timestamp: 0, timezoneOffset: 0 };
  const oid = await writeCommit(ctx, { tree, parents: [], message: `import of ${session} started\n`, author: who, committer: who });
  const ref = importMarkerRef(session);
  const current = await readRef(ctx, ref);
  if (current !== oid) await compareAndSwapRef(ctx, ref, current, oid);
}

/**
 * Removes the marker {@link markImport} set, once the import of `session` is complete; nothing when there is none.
 *
 * @param repo - the repository
 * @param session - the imported session
 * @throws {@link InvalidOptionError} for a `repo` that is not one or an empty or non-string `session`; `InvalidNameError` for a session name that cannot be a ref component; `RefConflictError` when a live writer holds the marker's lock
 * @example
 * ```ts
 * await clearImportMarker(repo, 'chat-42');
 * ```
 */
export async function clearImportMarker(repo: Repo, session: string): Promise<void> {
  const ctx = gitOf(repo);
  checkSession(session);
  const ref = importMarkerRef(session);
  const current = await readRef(ctx, ref);
  if (current !== null) await deleteRef(ctx, ref, current);
}

/**
 * The imports that were started and did not finish: every marker {@link markImport} set and
 * {@link clearImportMarker} has not removed, sorted by session.
 *
 * @param repo - the repository
 * @returns `{ session, resume }` for each
 * @throws {@link InvalidOptionError} for a `repo` that is not one
 * @example
 * ```ts
 * for (const i of await incompleteImports(repo)) console.error(`${i.session}: run ${i.resume}`);
 * ```
 */
export async function incompleteImports(repo: Repo): Promise<IncompleteImport[]> {
  const ctx = gitOf(repo);
  const out: IncompleteImport[] = [];
  for (const ref of await listRefs(ctx, IMPORTS_PREFIX)) {
    const oid = await readRef(ctx, ref);
    const marker = oid === null ? undefined : await readImportMarker(ctx, oid).catch(() => undefined);
    out.push(marker ?? { session: sessionOfRefComponent(ref.slice(IMPORTS_PREFIX.length)), resume: '' });
  }
  return out.sort((a, b) => (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
}
