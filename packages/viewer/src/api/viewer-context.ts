import type { Repo, Session } from '@ctxgit/commit';
import type { PriceTable } from '../prices.js';
import type { FullHistory } from './full-history.js';

/** What every API handler reads from: the repository, the sessions, and the viewer's caches. */
export interface ViewerContext {
  readonly repo: Repo;
  /** The session object of a name (the embedding backend's own, so recorded usage shows). */
  session(name: string): Promise<Session>;
  readonly fullHistory: FullHistory;
  readonly prices: PriceTable;
}
