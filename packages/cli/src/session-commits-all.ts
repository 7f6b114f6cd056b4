import type { LogEntry, Repo, Session } from '@ctxgit/commit';
import { refLayout } from '@ctxgit/commit';
import { readCommitObject, readRef } from '@ctxgit/commit/git';

/**
 * Every context commit of a session, on every branch, oldest first: the commits its DAG ref indexes (each DAG
 * commit names the commits it indexed in `Context-Commit:` trailers) and the chain `log` shows (which continues
 * into the session it was forked from).
 */
export async function allSessionCommits(repo: Repo, s: Session): Promise<LogEntry[]> {
  const ids = new Set<string>((await s.log()).map((e) => e.id));
  for (let oid = await readRef(repo.git, refLayout.dag(s.name)); oid !== null; ) {
    const c = await readCommitObject(repo.git, oid);
    for (const m of c.message.matchAll(/^Context-Commit: ([0-9a-f]{40}) /gmu)) ids.add(m[1] as string);
    // the DAG's own chain: the first parent that is a DAG commit of this session (a fork's first DAG commit has its source's as parent)
    const next = c.parents[0];
    oid = next === undefined ? null : /^Session: (.+)$/mu.exec((await readCommitObject(repo.git, next)).message)?.[1] === s.name ? next : null;
  }
  const entries: LogEntry[] = [];
  for (const id of ids) {
    const [e] = await s.log({ start: id, limit: 1 });
    if (e !== undefined) entries.push(e);
  }
  return entries.sort((a, b) => a.createdAt - b.createdAt || a.turn - b.turn || (a.id < b.id ? -1 : 1));
}
