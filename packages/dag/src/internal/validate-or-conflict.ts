import { DagConflictError, DuplicateIdError } from '../errors.js';
import type { Node } from '../node.js';
import type { NodeStore, SessionRecord } from '../node-store.js';
import { validateNodes } from './validate-nodes.js';

/**
 * {@link validateNodes}, except that an id taken because another writer changed the session meanwhile (it
 * appended the same seq) is reported as the retryable {@link DagConflictError} it really is.
 */
export async function validateOrConflict(store: NodeStore, session: string, expected: SessionRecord | null, nodes: readonly Node[], maxOutputBytes: number): Promise<void> {
  try {
    await validateNodes(store, nodes, maxOutputBytes);
  } catch (e) {
    if (!(e instanceof DuplicateIdError)) throw e;
    const actual = await store.getSession(session);
    if ((actual?.version ?? null) !== (expected?.version ?? null)) throw new DagConflictError({ session, expected: expected?.version ?? null, actual: actual?.version ?? null });
    throw e;
  }
}
