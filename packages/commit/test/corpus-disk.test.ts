import { describe, expect, it } from 'vitest';
import { FS_KINDS, git } from './helpers.js';
import { replayCorpus } from './replay.js';

const kind = FS_KINDS.find((k) => k.name === 'disk');

describe('corpus replay on a temp dir', () => {
  it('replays every transcript with a commit before each assistant node; git fsck --strict is clean', async () => {
    if (kind === undefined) throw new Error('no disk kind');
    const { repo, gitdir } = await kind.open();
    const { transcripts, commits, assistants } = await replayCorpus(repo);
    expect(transcripts).toBe(170);
    expect(commits).toBeGreaterThanOrEqual(assistants);
    expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    const log = git(gitdir, 'log', '--format=%s', 'ctxgit/sessions/swe-0/context').trim().split('\n');
    expect(log[log.length - 1]).toMatch(/^swe-0 turn 1: /);
  });
});
