// Issue 17, items 2/5: the tokenizer belongs to the repository (no module-level cache) and is built only when a turn
// counts: opening a session and asking for its latest commit, when nothing is new, builds none.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenizerLoader } from '@ctxgit/tokenize';
import type { TokenizerEncoding, TokenizerLoader } from '@ctxgit/tokenize';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../src/index.js';

function spyLoader(): { loader: TokenizerLoader; loads: string[] } {
  const inner = createTokenizerLoader();
  const loads: string[] = [];
  return {
    loads,
    loader: {
      load: async (e: TokenizerEncoding) => {
        loads.push(e);
        return inner.load(e);
      },
      get: (e: TokenizerEncoding) => inner.get(e),
    },
  };
}

describe('the tokenizer belongs to the repository', () => {
  it('is loaded through the loader given to openRepo, only when a turn runs the rules; a cold start loads none', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ctxgit-tok-')), 'ctx.git');
    let t = 1_700_000_000_000;
    const clock = (): number => (t += 1000);
    const first = spyLoader();
    const repo = await openRepo({ dir, fsync: false, clock, tokenizers: first.loader });
    expect(repo.tokenizers).toBe(first.loader);
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    expect(first.loads).toEqual([]);
    await s.append({ role: 'user', output: 'List the files.' });
    const c = await s.commit();
    expect(first.loads.length).toBeGreaterThan(0);
    expect(new Set(first.loads)).toEqual(new Set(['o200k_base']));

    const cold = spyLoader();
    const again = await openRepo({ dir, fsync: false, clock, tokenizers: cold.loader });
    const same = await (await again.openSession('chat')).commit();
    expect(same.id).toBe(c.id);
    expect(cold.loads).toEqual([]);
  });

  it('each repository has its own loader by default; a bad tokenizers option is refused', async () => {
    const a = await openRepo({ memory: true });
    const b = await openRepo({ memory: true });
    expect(a.tokenizers).not.toBe(b.tokenizers);
    await expect(openRepo({ memory: true, tokenizers: {} as TokenizerLoader })).rejects.toMatchObject({ code: 'E_COMMIT_INVALID_OPTION', data: { option: 'tokenizers' } });
  });
});
