// Runs LangGraph's own checkpointer conformance suite (@langchain/langgraph-checkpoint-validation), unmodified,
// against CtxgitSaver. The suite is written for vitest with `globals: true` (as its CLI runs it), so the vitest
// functions it calls are put on globalThis first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRepo } from '@ctxgit/commit';
import type { FsLike } from '@ctxgit/commit';
import { validate } from '@langchain/langgraph-checkpoint-validation';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CtxgitSaver } from '../src/index.js';

Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it });

/** Registers the whole validation suite for one storage kind; every checkpointer gets a fresh repository. */
export function runValidation(kind: 'memfs' | 'disk'): void {
  const dirs: string[] = [];
  validate<CtxgitSaver>({
    checkpointerName: `CtxgitSaver (${kind})`,
    async createCheckpointer() {
      const clock = () => 1_700_000_000_000;
      if (kind === 'memfs') {
        const fs = createFsFromVolume(new Volume()) as unknown as FsLike;
        return new CtxgitSaver({ repo: await openRepo({ memory: true, fs, fsync: false, clock }), session: { model: 'openai:gpt-4o' }, clock });
      }
      const dir = mkdtempSync(join(tmpdir(), 'ctxgit-langgraph-'));
      dirs.push(dir);
      return new CtxgitSaver({ repo: await openRepo({ dir: join(dir, 'repo.git'), clock }), session: { model: 'openai:gpt-4o' }, clock });
    },
    afterAll() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  });
}
