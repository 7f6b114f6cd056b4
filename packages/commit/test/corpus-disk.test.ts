import { describe, expect, it } from 'vitest';
import { FS_KINDS, git } from './helpers.js';
import { replayCorpus } from './replay.js';

const kind = FS_KINDS.find((k) => k.name === 'disk');
/**
 * corpus-memfs.test.ts replays every transcript; here every 8th of each corpus (22 of 170) with git checking the
 * repository, unless CTXGIT_FULL_REPLAY=1 (`npm run test:replays`) asks for all of them on disk too.
 */
const FULL = process.env['CTXGIT_FULL_REPLAY'] === '1';

describe('corpus replay on a temp dir', () => {
  it(`replays ${FULL ? 'every transcript' : 'a sample of each corpus'} with a commit before each assistant node; git fsck --strict is clean`, async () => {
    if (kind === undefined) throw new Error('no disk kind');
    const { repo, gitdir } = await kind.open();
    const { transcripts, commits, assistants } = await replayCorpus(repo, FULL ? 1 : 8);
    expect(transcripts).toBe(FULL ? 170 : 22);
    expect(commits).toBeGreaterThanOrEqual(assistants);
    expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    const log = git(gitdir, 'log', '--format=%s', 'ctxgit/sessions/swe-0/context').trim().split('\n');
    expect(log[log.length - 1]).toMatch(/^swe-0 turn 1: /);
  });
});
