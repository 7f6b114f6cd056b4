import type { ChatCall } from './chat-types.js';
import type { TranscriptBuilder } from './transcript-builder.js';

/** Adds one tool entry per call under the entry `caller`: its result, or an empty output flagged `resultMissing`. */
export function emitCalls(b: TranscriptBuilder, calls: readonly ChatCall[], caller: number, callerCreatedAt: number | undefined): void {
  for (const c of calls) {
    if (c.result === undefined) b.count('unansweredCalls');
    else b.count('toolResults');
    const createdAt = c.result?.createdAt ?? callerCreatedAt;
    b.add({
      role: 'tool',
      name: c.name,
      input: c.input,
      output: c.result?.output ?? '',
      caller,
      ...(createdAt === undefined ? {} : { createdAt }),
      metadata: { source: c.result === undefined ? { ...c.source, resultMissing: true } : { ...c.source, ...c.result.source } },
    });
  }
}
