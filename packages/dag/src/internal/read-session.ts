import { SessionNotFoundError } from '../errors.js';
import type { NodeStore, SessionRecord } from '../node-store.js';
import { validateSessionName } from '../validate-session-name.js';

/** Validates the name and reads the session record, or throws {@link SessionNotFoundError}. */
export async function readSession(store: NodeStore, session: unknown): Promise<SessionRecord> {
  const name = validateSessionName(session);
  const rec = await store.getSession(name);
  if (rec === undefined) throw new SessionNotFoundError({ session: name });
  return rec;
}
