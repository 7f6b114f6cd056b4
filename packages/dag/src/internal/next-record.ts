import type { SessionRecord } from '../node-store.js';

/** The record after a change: the given fields replaced, version bumped. */
export function nextRecord(rec: SessionRecord, change: { readonly head?: string | null; readonly nextSeq?: number; readonly agentRunning?: boolean }): SessionRecord {
  return {
    id: rec.id,
    head: change.head === undefined ? rec.head : change.head,
    nextSeq: change.nextSeq ?? rec.nextSeq,
    agentRunning: change.agentRunning ?? rec.agentRunning,
    ...(rec.forkedFrom === undefined ? {} : { forkedFrom: rec.forkedFrom }),
    version: rec.version + 1,
  };
}
