import { describe, expect, it } from 'vitest';

describe('@ctxgit/viewer exports', () => {
  it('exports exactly its public API', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual(['DEFAULT_PRICES', 'ViewerError', 'createViewer']);
  });
});
