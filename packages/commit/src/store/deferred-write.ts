import type { Node, NodeStore, SessionRecord, StoreWrite } from '@ctxgit/dag';

/**
 * A {@link NodeStore} that reads through `store` and keeps the one write it is given instead of storing it, so that
 * the operations of `@ctxgit/dag` can build and validate a write that is then stored together with other objects.
 */
export class DeferredWrite implements NodeStore {
  readonly #store: NodeStore;
  #change: StoreWrite | undefined;

  constructor(store: NodeStore) {
    this.#store = store;
  }

  /** The write kept, once one was made. */
  get change(): StoreWrite | undefined {
    return this.#change;
  }

  getNode(id: string): Promise<Node | undefined> {
    return this.#store.getNode(id);
  }

  childrenOf(id: string): Promise<readonly string[]> {
    return this.#store.childrenOf(id);
  }

  calleesOf(id: string): Promise<readonly string[]> {
    return this.#store.calleesOf(id);
  }

  rootsOf(session: string): Promise<readonly string[]> {
    return this.#store.rootsOf(session);
  }

  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.#store.getSession(id);
  }

  listSessions(): Promise<readonly string[]> {
    return this.#store.listSessions();
  }

  async write(change: StoreWrite): Promise<void> {
    this.#change = change;
  }
}
