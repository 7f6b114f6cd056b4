import type { ContextCommit, Repo } from '@ctxgit/commit';
import { refLayout } from '@ctxgit/commit';
import { listRefs, readCommitObject, readRef } from '@ctxgit/commit/git';
import { CliError } from './errors.js';

/** Shortest commit id prefix accepted (as git's default abbreviation floor). */
export const MIN_PREFIX = 4;

/**
 * Every context commit id: the targets of the sessions' `context` refs, the commits the sessions' DAG commits name
 * as extra parents (the commit index keeps every ContextCommit reachable that way), and all their ancestors.
 */
async function allCommitIds(repo: Repo): Promise<Set<string>> {
  const ids = new Set<string>();
  const todo: string[] = [];
  const dags = new Set<string>();
  for (const ref of await listRefs(repo.git, refLayout.sessions)) {
    const oid = ref.endsWith('/context') || ref.endsWith('/dag') ? await readRef(repo.git, ref) : null;
    if (oid === null) continue;
    if (ref.endsWith('/context')) todo.push(oid);
    // a DAG's first parents are DAG commits, its other parents ContextCommits
    for (let d: string | undefined = oid; d !== undefined && ref.endsWith('/dag') && !dags.has(d); ) {
      dags.add(d);
      const [first, ...rest]: readonly string[] = (await readCommitObject(repo.git, d)).parents;
      todo.push(...rest);
      d = first;
    }
  }
  for (let oid = todo.pop(); oid !== undefined; oid = todo.pop()) {
    if (ids.has(oid)) continue;
    ids.add(oid);
    todo.push(...(await readCommitObject(repo.git, oid)).parents);
  }
  return ids;
}

/**
 * Reads a ContextCommit by its id or a unique prefix of at least {@link MIN_PREFIX} hex digits (as `ctxgit log`
 * prints it), with a one-line error for anything else.
 */
export async function readCommitArg(repo: Repo, id: string): Promise<ContextCommit> {
  if (!new RegExp(`^[0-9a-f]{${MIN_PREFIX},40}$`).test(id)) {
    throw new CliError('E_CLI_UNKNOWN_COMMIT', `${JSON.stringify(id)} is not a commit id; pass the id (or a prefix of ${MIN_PREFIX}+ hex digits) that \`ctxgit log\` prints`, { id }, { exitCode: 2 });
  }
  const ids = await allCommitIds(repo);
  const matches = id.length === 40 ? (ids.has(id) ? [id] : []) : [...ids].filter((c) => c.startsWith(id));
  if (matches.length === 0) throw new CliError('E_CLI_UNKNOWN_COMMIT', `no context commit ${id} in this repository; \`ctxgit log --session <name>\` lists them`, { id });
  if (matches.length > 1) throw new CliError('E_CLI_UNKNOWN_COMMIT', `commit prefix ${id} is ambiguous (${matches.length} commits); give more digits`, { id, matches: matches.length });
  return repo.readCommit(matches[0] as string);
}
