import type { ChatUnit } from './chat-types.js';
import type { NodeMetadata } from '../options.js';
import { emitCalls } from './emit-calls.js';
import type { TranscriptBuilder } from './transcript-builder.js';

/**
 * Pass 2 of the chat-style importers: each unit follows the previous one, and each assistant unit is followed
 * by one tool entry per call (its result, or an empty output flagged `resultMissing`). Returns the head index.
 */
export function emitChatUnits(b: TranscriptBuilder, units: readonly ChatUnit[]): number | null {
  let prev: number | undefined;
  for (const u of units) {
    const meta: NodeMetadata = { source: u.source };
    const index = b.add({
      role: u.role,
      ...(u.name === undefined ? {} : { name: u.name }),
      output: u.output,
      ...(prev === undefined ? {} : { predecessor: prev }),
      ...(u.createdAt === undefined ? {} : { createdAt: u.createdAt }),
      metadata: meta,
    });
    prev = index;
    emitCalls(b, u.calls, index, u.createdAt);
  }
  return prev ?? null;
}

