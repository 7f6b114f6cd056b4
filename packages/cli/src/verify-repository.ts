import type { Repo } from '@ctxgit/commit';
import { hasObject, listRefs, readRef } from '@ctxgit/commit';

/** What `ctxgit verify` found. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly checked: { readonly refs: number; readonly commits: number; readonly summaries: number; readonly nodes: number };
  /** One line per problem. */
  readonly problems: readonly string[];
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Runs the checks of `ctxgit verify` through the public API of `@ctxgit/commit`. */
export async function verifyRepository(repo: Repo): Promise<VerifyReport> {
  const problems: string[] = [];
  const checked = { refs: 0, commits: 0, summaries: 0, nodes: 0 };
  for (const ref of await listRefs(repo.git, 'refs/')) {
    checked.refs += 1;
    const oid = await readRef(repo.git, ref);
    if (oid === null || !(await hasObject(repo.git, oid))) problems.push(`ref ${ref} points to a missing object ${oid ?? '(none)'}`);
  }
  const seenCommits = new Set<string>();
  const seenNodes = new Set<string>();
  for (const name of await repo.listSessions()) {
    const s = await repo.openSession(name);
    for (const entry of await s.log().catch((err: unknown) => (problems.push(`session ${name}: log: ${message(err)}`), []))) {
      if (seenCommits.has(entry.id)) continue;
      seenCommits.add(entry.id);
      checked.commits += 1;
      try {
        const c = await repo.readCommit(entry.id);
        for (const item of c.items) {
          if (item.state !== 'summary') continue;
          checked.summaries += 1;
          await s.expand(item.key, { commit: c.id });
        }
      } catch (err) {
        problems.push(`commit ${entry.id}: ${message(err)}`);
      }
    }
    const onPath = new Set<string>();
    let id: string | null | undefined = await s.head();
    while (id !== null && id !== undefined) {
      if (onPath.has(id)) {
        problems.push(`session ${name}: cycle through node ${id}`);
        break;
      }
      onPath.add(id);
      const node = await repo.store.getNode(id);
      if (node === undefined) {
        problems.push(`session ${name}: node ${id} is missing`);
        break;
      }
      if (!seenNodes.has(id)) {
        seenNodes.add(id);
        checked.nodes += 1;
      }
      id = node.predecessor;
    }
  }
  return { ok: problems.length === 0, checked, problems };
}
