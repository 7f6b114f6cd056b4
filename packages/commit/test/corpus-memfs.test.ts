import { describe, expect, it } from 'vitest';
import { FS_KINDS } from './helpers.js';
import { corpusTranscripts, replay } from './replay.js';

const kind = FS_KINDS.find((k) => k.name === 'memfs');

describe('corpus replay on memfs', () => {
  it('replays every transcript with a commit before each assistant node', { timeout: 600_000 }, async () => {
    if (kind === undefined) throw new Error('no memfs kind');
    const { repo } = await kind.open();
    const all = corpusTranscripts();
    expect(all.length).toBe(170);
    let commits = 0;
    let assistants = 0;
    for (const { name, model, transcript } of all) {
      const made = await replay(repo, name, model, transcript);
      commits += new Set(made.map((c) => c.id)).size;
      assistants += transcript.entries.filter((e) => e.role === 'assistant').length;
    }
    expect(commits).toBeGreaterThanOrEqual(assistants);
    expect((await repo.listSessions()).length).toBe(170);
  });
});
