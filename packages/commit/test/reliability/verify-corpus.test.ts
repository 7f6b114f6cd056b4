import { afterAll, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { corpusTranscripts, replay } from '../replay.js';
import { writeCounts } from './support.js';

const totals = { transcripts: 0, commits: 0, nodes: 0, items: 0, falseAlarms: 0 };
afterAll(() => writeCounts('verify-corpus', totals));

/** Every this-many-th transcript of the corpus (all 170 take ~35 s; with every one, 2,161 commits verified clean). */
const EVERY = 8;

describe('verifyRepo on real transcripts', () => {
  it('is clean after replaying transcripts of every corpus format into one repository (no false alarm)', async () => {
    const repo = await openRepo({ memory: true, clock: () => 1_700_000_000_000, fsync: false });
    for (const { name, model, transcript } of corpusTranscripts().filter((_, i) => i % EVERY === 0)) {
      await replay(repo, name, model, transcript);
      totals.transcripts++;
    }
    const report = await verifyRepo(repo, { record: true });
    totals.commits = report.counts.contextCommits;
    totals.nodes = report.counts.nodes;
    totals.items = report.counts.items;
    totals.falseAlarms = report.issues.filter((i) => i.severity === 'error').length;
    expect(report.issues.filter((i) => i.severity === 'error').slice(0, 5)).toEqual([]);
    expect(report.recorded).toBe(true);
  });
});
