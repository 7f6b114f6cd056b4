import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = (name: string): string => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: ['dag', 'tokenize', 'rules', 'commit', 'render', 'viewer', 'cli'].map((name) => ({
      find: new RegExp(`^@ctxgit/${name}$`),
      replacement: pkg(name),
    })),
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/**/test/**/*.test.ts', 'bench/test/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
