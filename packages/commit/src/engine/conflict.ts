import { DagConflictError } from '@ctxgit/dag';
import { CommitConflictError } from '../errors.js';

/** Runs a DAG write; a lost compare-and-swap becomes {@link CommitConflictError}. */
export async function dagWrite<T>(session: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DagConflictError) throw new CommitConflictError(session, what, err);
    throw err;
  }
}
