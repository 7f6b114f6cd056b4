import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = (name: string): string => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      ...['errors', 'dag', 'tokenize', 'rules', 'commit', 'render', 'viewer', 'cli', 'langgraph', 'ai-sdk', 'clients'].map((name) => ({
        find: new RegExp(`^@ctxgit/${name}$`),
        replacement: pkg(name),
      })),
      // the subpath entries of package.json `exports`
      { find: /^@ctxgit\/commit\/git$/, replacement: fileURLToPath(new URL('./packages/commit/src/git/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/**/test/**/*.test.ts', 'bench/test/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
    // One generous limit for every test and hook: a hung test still fails, but a slow, loaded 2-core machine
    // never trips it (the heaviest file, a full corpus replay on disk, takes 1.5 min idle and 8 min loaded).
    testTimeout: 1_800_000,
    hookTimeout: 1_800_000,
  },
});
