import { InvalidOptionError } from '../../errors.js';
import { compareAndSwapRef } from '../../git/compare-and-swap-ref.js';
import type { GitContext } from '../../git/git-context.js';
import { readRef } from '../../git/read-ref.js';
import type { Repo } from '../repo.js';
import { checkContextCommits } from './internal/check-commits.js';
import { checkDag, snapshotAt } from './internal/check-dag.js';
import type { DagModel } from './internal/check-dag.js';
import { readCommitObject } from '../../git/read-commit-object.js';
import { writeCommit } from '../../git/write-commit.js';
import { writeBlob } from '../../git/write-blob.js';
import { writeTree } from '../../git/write-tree.js';
import { sessionOfRefComponent, sessionRefComponent } from '../../store/refs.js';
import { guard } from './internal/verifier.js';
import { checkFiles } from './internal/check-files.js';
import { checkObjects } from './internal/check-objects.js';
import { VERIFIED_REF } from '../../store/refs.js';
import { checkRefs } from './internal/check-refs.js';
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

/** The token's message: one `Dag: <oid> <session ref component>` line per session, in session order. */
function tokenMessage(dag: DagModel): string {
  const lines = [...dag.refs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, r]) => `Dag: ${r.head} ${sessionRefComponent(name)}`);
  return `ctxgit verified ${lines.length} session DAG${lines.length === 1 ? '' : 's'}\n\n${lines.join('\n')}\n`;
}

/** Stores the verification token: a commit whose parents are every session's DAG commit, its tree `dags.txt` listing them. */
async function writeToken(ctx: GitContext, dag: DagModel): Promise<string | null> {
  if (dag.refs.size === 0) return null;
  const heads = [...dag.refs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r.head);
  // the tree holds the same list as the message (`git show refs/ctxgit/verified:dags.txt`)
  const list = await writeBlob(ctx, tokenMessage(dag).split('\n\n')[1] ?? '');
  const tree = await writeTree(ctx, [{ mode: '100644', path: 'dags.txt', oid: list, type: 'blob' }]);
  const who = { name: 'ctxgit', email: 'ctxgit@localhost', timestamp: 0, timezoneOffset: 0 };
  return writeCommit(ctx, { tree, parents: [...new Set(heads)], message: tokenMessage(dag), author: who, committer: who });
}

/** Every session's DAG only grew since the token `previous`: its commit is in the history, each node and the record's version are still there. */
async function checkAppendOnly(v: Verifier, dag: DagModel, previous: string): Promise<void> {
  const token = await guard(v, `previous ${previous}`, 'unreadable verification token', () => readCommitObject(v.git, previous));
  if (token === undefined) return;
  for (const line of token.message.split('\n')) {
    const m = /^Dag: ([0-9a-f]{40}) (\S+)$/u.exec(line);
    if (m === null) continue;
    const [, oid, component] = m as unknown as [string, string, string];
    const name = sessionOfRefComponent(component);
    const now = dag.refs.get(name);
    if (now === undefined) {
      report(v, 'E_VERIFY_DAG_REWRITTEN', `dag:session ${name}`, `session ${name} had a DAG at the previous verification and has none now`);
      continue;
    }
    if (!now.history.includes(oid)) report(v, 'E_VERIFY_DAG_HISTORY_BROKEN', now.ref, `the previously verified DAG commit ${oid} is not in the history of ${now.ref}: the DAG was rewritten`);
    const before = await snapshotAt(v, oid);
    if (before === undefined) continue;
    for (const [id, blob] of before.nodes) {
      const n = dag.nodes.get(id);
      if (n === undefined) report(v, 'E_VERIFY_DAG_REWRITTEN', `dag:node ${id}`, `node ${id} was in the DAG at the previous verification and is gone`);
      else if (n.oid !== blob) report(v, 'E_VERIFY_DAG_REWRITTEN', `dag:node ${id}`, `node ${id} changed since the previous verification (${blob} -> ${n.oid})`);
    }
    const version = dag.sessions.get(name)?.version;
    if (before.version !== undefined && (version === undefined || version < before.version)) {
      report(v, 'E_VERIFY_DAG_REWRITTEN', `dag:session ${name}`, `session ${name} was at version ${before.version} and is now ${version === undefined ? 'gone' : `at ${version}`}`);
    }
  }
}

/**
 * Checks a repository end to end and returns what is wrong as data; it never throws for a damaged repository.
 *
 * - refs: every ref resolves to an existing object; ctxgit's refs to commits of the right kind (a config ref to a
 *   config commit);
 * - ContextCommits (every one reachable from a session ref, through every parent): `meta.json` parses; every item
 *   blob parses and, serialized canonically again, hashes to the oid its tree names; item paths match their keys;
 *   the item count matches; every item's origin is the byte-identical blob of its DAG node; every summary's
 *   originals are in the commit, summarized, with origins; extra parents are merged peers' commits;
 * - every session's DAG (`refs/ctxgit/sessions/<s>/dag`): its first-parent history is readable; every node parses,
 *   is canonical, lives at its path (a node a fork inherited is the same blob in both sessions); every edge
 *   resolves and the edges are acyclic; the children, callees and roots indexes match the nodes exactly; the
 *   session record is consistent; every commit-index entry names a ContextCommit of its node (of the session or
 *   of one it was forked from), and those commits and the ones DAG commits name as parents are checked as above;
 * - every object reachable from every ctxgit ref, through all of its history (older DAG commits included), exists,
 *   hashes to its id and parses (skipped with `quick`);
 * - append-only: compared with the `previous` token, each session's old DAG commit is in its history and every
 *   node of it is still there, byte for byte, the record's version no lower.
 *
 * When the repository is sound the token is stored as a commit object (one parent per session DAG commit, a tree
 * holding `dags.txt` that lists them), so that it can be passed back later; no ref moves unless `record`.
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
  const { previous, record = false, quick = false } = plainOptions<VerifyOptions>(options, 'options', '{ previous?, record?, quick? }');
  if (previous !== undefined && previous !== null && (typeof previous !== 'string' || !OID.test(previous))) {
    throw new InvalidOptionError('previous', describe(previous), 'a token from an earlier VerifyReport (40 lowercase hex digits) or null');
  }
  if (typeof record !== 'boolean') throw new InvalidOptionError('record', describe(record), 'a boolean');
  if (typeof quick !== 'boolean') throw new InvalidOptionError('quick', describe(quick), 'a boolean');
  const v = createVerifier({ fs: ctx.fs, gitdir: ctx.gitdir, cache: {} });
  await checkFiles(v);
  const dag = await checkDag(v);
  let recordedToken: string | null = null;
  try {
    recordedToken = await readRef(v.git, VERIFIED_REF);
  } catch {
    recordedToken = null; // reported by the ref check
  }
  const against = previous === undefined ? recordedToken : previous;
  if (against !== null) await checkAppendOnly(v, dag, against);
  const starts = await checkRefs(v, dag);
  await checkContextCommits(v, dag, [...dag.starts, ...starts]);
  if (!quick) await checkObjects(v);
  const ok = !v.issues.some((i) => i.severity === 'error');
  let recorded = false;
  let token: string | null = null;
  if (ok) {
    try {
      token = await writeToken(ctx, dag);
    } catch (err) {
      report(v, 'E_VERIFY_RECORD_FAILED', 'token', `could not store the token: ${err instanceof Error ? err.message : String(err)}`, 'warning');
    }
  }
  if (record && token !== null) {
    try {
      if (recordedToken !== token) await compareAndSwapRef(ctx, VERIFIED_REF, recordedToken, token);
      recorded = true;
    } catch (err) {
      report(v, 'E_VERIFY_RECORD_FAILED', VERIFIED_REF, `could not record the token: ${err instanceof Error ? err.message : String(err)}`, 'warning');
    }
  }
  return { ok, issues: v.issues, counts: { ...v.counts }, token, previous: against, recorded };
}
