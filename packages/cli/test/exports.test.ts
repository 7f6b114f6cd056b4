import { describe, expect, it } from 'vitest';

describe('@ctxgit/cli exports', () => {
  it('exports exactly its public API', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual(['CliError', 'DEFAULT_IMPORT_MODEL', 'DEFAULT_REPO', 'SYNTHETIC_EPOCH_MS', 'VERSION', 'main']);
  });
});
