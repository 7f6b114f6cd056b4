import type { ContextCommit, Repo } from '@ctxgit/commit';

/** A session's commits, oldest first: the first-parent chain of its latest commit. */
export async function sessionCommits(repo: Repo, session: string): Promise<ContextCommit[]> {
  const s = await repo.openSession(session);
  const out: ContextCommit[] = [];
  for (const e of (await s.log()).reverse()) out.push(await repo.readCommit(e.id));
  return out;
}
