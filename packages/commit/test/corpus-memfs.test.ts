import { describe, expect, it } from 'vitest';
import { FS_KINDS } from './helpers.js';
import { replayCorpus } from './replay.js';

const kind = FS_KINDS.find((k) => k.name === 'memfs');

describe('corpus replay on memfs', () => {
  it('replays every transcript with a commit before each assistant node', async () => {
    if (kind === undefined) throw new Error('no memfs kind');
    const { repo } = await kind.open();
    const { transcripts, commits, assistants } = await replayCorpus(repo);
    expect(transcripts).toBe(170);
    expect(commits).toBeGreaterThanOrEqual(assistants);
    expect((await repo.listSessions()).length).toBe(170);
  });
});
