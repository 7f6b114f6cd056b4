import type { GitContext } from '../git/git-context.js';
import type { GitNodeStore } from './git-node-store.js';
import { readStoredCommit } from './read-stored-commit.js';
import type { StoredCommit } from './stored-commit.js';

/** How many parsed commits a repository keeps in memory at most. */
const CACHE_SIZE = 64;
/** And how many items they may hold together: the newest commit is always kept (a long session's commit holds many, and every one kept is memory the collector walks). */
const CACHE_ITEMS = 100_000;

/** The shared state of an open repository: git context, DAG store, parsed-commit cache. */
export interface RepoCore {
  readonly git: GitContext;
  readonly store: GitNodeStore;
  /** Where the repository lives, for messages: a directory or `(memory)`. */
  readonly location: string;
  readonly commits: Map<string, StoredCommit>;
}

/** The commit, from the cache or from git. */
export async function loadCommit(core: RepoCore, oid: string): Promise<StoredCommit> {
  const hit = core.commits.get(oid);
  if (hit !== undefined) {
    core.commits.delete(oid);
    core.commits.set(oid, hit);
    return hit;
  }
  const stored = await readStoredCommit(core.git, oid);
  remember(core, stored);
  return stored;
}

/** Puts a commit into the cache, evicting the least recently used beyond {@link CACHE_SIZE} commits or {@link CACHE_ITEMS} items. */
export function remember(core: RepoCore, stored: StoredCommit): void {
  core.commits.delete(stored.commit.id);
  core.commits.set(stored.commit.id, stored);
  let items = 0;
  for (const c of core.commits.values()) items += c.commit.items.length;
  for (const [id, c] of core.commits) {
    if (core.commits.size <= 1 || (core.commits.size <= CACHE_SIZE && items <= CACHE_ITEMS)) break;
    core.commits.delete(id);
    items -= c.commit.items.length;
  }
}
