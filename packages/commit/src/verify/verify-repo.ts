import { InvalidOptionError } from '../errors.js';
import { compareAndSwapRef } from '../git/compare-and-swap-ref.js';
import type { GitContext } from '../git/git-context.js';
import { readRef } from '../git/read-ref.js';
import type { Repo } from '../repo.js';
import { checkContextCommits } from './internal/check-commits.js';
import { checkDag, snapshotAt } from './internal/check-dag.js';
import { checkFiles } from './internal/check-files.js';
import { checkObjects } from './internal/check-objects.js';
import { checkRefs, VERIFIED_REF } from './internal/check-refs.js';
import type { Verifier } from './internal/verifier.js';
import { createVerifier, report } from './internal/verifier.js';
import type { VerifyOptions, VerifyReport } from './verify-report.js';
import { plainOptions } from '../plain-options.js';

const OID = /^[0-9a-f]{40}$/u;

/** A JSON-safe description of a bad argument (a bigint or symbol cannot go into an error's data). */
function describe(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 100) : typeof value;
}

function isContext(value: unknown): value is GitContext {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Partial<GitContext>;
  return typeof c.gitdir === 'string' && typeof c.cache === 'object' && c.cache !== null && typeof c.fs?.promises?.readFile === 'function';
}

/** The DAG only grew since `previous`: that commit is in the history, and each node and session it held is still there. */
async function checkAppendOnly(v: Verifier, dag: Awaited<ReturnType<typeof checkDag>>, previous: string, dagRef: string): Promise<void> {
  if (!dag.history.includes(previous)) {
    report(v, 'E_VERIFY_DAG_HISTORY_BROKEN', dagRef, `the previously verified DAG commit ${previous} is not in the history of ${dagRef}: the DAG was rewritten`);
  }
  const before = await snapshotAt(v, previous);
  if (before === undefined) return;
  for (const [id, oid] of before.nodes) {
    const now = dag.nodes.get(id);
    if (now === undefined) report(v, 'E_VERIFY_DAG_REWRITTEN', `dag:node ${id}`, `node ${id} was in the DAG at the previous verification and is gone`);
    else if (now.oid !== oid) report(v, 'E_VERIFY_DAG_REWRITTEN', `dag:node ${id}`, `node ${id} changed since the previous verification (${oid} -> ${now.oid})`);
  }
  for (const [name, version] of before.sessions) {
    const now = dag.sessions.get(name);
    if (now === undefined || now.version < version) {
      report(v, 'E_VERIFY_DAG_REWRITTEN', `dag:session ${name}`, `session ${name} was at version ${version} and is now ${now === undefined ? 'gone' : `at ${now.version}`}`);
    }
  }
}

/**
 * Checks a repository end to end and returns what is wrong as data; it never throws for a damaged repository.
 *
 * - refs: every ref resolves to an existing object; ctxgit's refs to commits of the right kind (an index ref to the
 *   commit of its node and session, a config ref to a config commit);
 * - ContextCommits (every one reachable from a session ref, through every parent): `meta.json` parses; every item
 *   blob parses and, serialized canonically again, hashes to the oid its tree names; item paths match their keys;
 *   the item count matches; every item's origin is the byte-identical blob of its DAG node; every summary's
 *   originals are in the commit, summarized, with origins; extra parents are merged peers' commits;
 * - the DAG: its history is readable and linear; every node parses, is canonical, lives at its path; every edge
 *   resolves and the edges are acyclic; the children, callees and roots indexes match the nodes exactly; session
 *   records are consistent;
 * - every object reachable from every ctxgit ref, through all of its history (older DAG commits included), exists,
 *   hashes to its id and parses (skipped with `quick`);
 * - append-only: compared with the `previous` token, the old DAG commit is an ancestor and every node and
 *   session of it is still there, byte for byte.
 *
 * Reads go through a fresh object cache, so damage on disk is seen even when `target` cached the object.
 *
 * @param target - an open {@link Repo}, or a `GitContext` from `openGit`
 * @param options - see {@link VerifyOptions}
 * @returns the report: `ok`, `issues` (`{ code, severity, path, message }`), `counts`, and the `token` to pass back next time
 * @throws {@link InvalidOptionError} for a bad argument (not a repository object, a token that is not an oid)
 * @example
 * ```ts
 * const first = await verifyRepo(repo, { record: true });
 * if (!first.ok) for (const i of first.issues) console.error(i.code, i.path, i.message);
 * // later: the DAG must only have grown since the recorded verification
 * const again = await verifyRepo(repo);
 * ```
 */
export async function verifyRepo(target: Repo | GitContext, options: VerifyOptions = {}): Promise<VerifyReport> {
  const ctx: unknown = isContext(target) ? target : typeof target === 'object' && target !== null ? (target as { git?: unknown }).git : undefined;
  if (!isContext(ctx)) throw new InvalidOptionError('target', typeof target, 'a Repo from openRepo or a GitContext from openGit');
  const { previous, record = false, dagRef = 'refs/ctxgit/dag', quick = false } = plainOptions<VerifyOptions>(options, 'options', '{ previous?, record?, dagRef?, quick? }');
  if (previous !== undefined && previous !== null && (typeof previous !== 'string' || !OID.test(previous))) {
    throw new InvalidOptionError('previous', describe(previous), 'a token from an earlier VerifyReport (40 lowercase hex digits) or null');
  }
  if (typeof record !== 'boolean') throw new InvalidOptionError('record', describe(record), 'a boolean');
  if (typeof quick !== 'boolean') throw new InvalidOptionError('quick', describe(quick), 'a boolean');
  if (typeof dagRef !== 'string' || !dagRef.startsWith('refs/')) throw new InvalidOptionError('dagRef', describe(dagRef), 'a full ref name, refs/...');
  const v = createVerifier({ fs: ctx.fs, gitdir: ctx.gitdir, cache: {} });
  await checkFiles(v);
  const dag = await checkDag(v, dagRef);
  let recordedToken: string | null = null;
  try {
    recordedToken = await readRef(v.git, VERIFIED_REF);
  } catch {
    recordedToken = null; // reported by the ref check
  }
  const against = previous === undefined ? recordedToken : previous;
  if (against !== null) await checkAppendOnly(v, dag, against, dagRef);
  const starts = await checkRefs(v, dag, dagRef);
  await checkContextCommits(v, dag, starts);
  if (!quick) await checkObjects(v);
  const ok = !v.issues.some((i) => i.severity === 'error');
  let recorded = false;
  if (record && ok && dag.head !== null) {
    try {
      if (recordedToken !== dag.head) await compareAndSwapRef(ctx, VERIFIED_REF, recordedToken, dag.head);
      recorded = true;
    } catch (err) {
      report(v, 'E_VERIFY_RECORD_FAILED', VERIFIED_REF, `could not record the token: ${err instanceof Error ? err.message : String(err)}`, 'warning');
    }
  }
  return { ok, issues: v.issues, counts: { ...v.counts }, token: dag.head, previous: against, recorded };
}
