// The processes the kill tests start, each bundled into one JavaScript file by esbuild (from the TypeScript sources,
// through the `@ctxgit/source` condition: no `tsc -b`, no dist needed), so that a process start costs node's start
// and one parse, not a TypeScript loader or the resolution of the package graph file by file. Built by the tests
// themselves (beforeAll), into `.build/` (git-ignored), on every run: a fresh clone needs nothing but the install.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BUILD_DIR = fileURLToPath(new URL('./.build/', import.meta.url));

/** The crash worker (fixtures/crash-worker.ts), bundled: `node <CRASH_WORKER>`. */
export const CRASH_WORKER = join(BUILD_DIR, 'crash-worker.mjs');
/** The ctxgit CLI (packages/cli/src/bin.ts), bundled: `node <CLI_BUNDLE> import …`. */
export const CLI_BUNDLE = join(BUILD_DIR, 'ctxgit.mjs');
/** A preload (fixtures/die-at-write.ts) that kills its process at a chosen write: `node --import <DIE_AT_WRITE> …`. */
export const DIE_AT_WRITE = join(BUILD_DIR, 'die-at-write.mjs');

/**
 * js-tiktoken's rank tables (megabytes each) stay out of the bundles: they are imported, from node_modules, only by a
 * process that counts with a BPE encoding (the crash suite's writers use an estimated model and never load them).
 */
const ranksOutside: Plugin = {
  name: 'ranks-outside',
  setup(b) {
    b.onResolve({ filter: /^js-tiktoken\/ranks\// }, (args) => ({ path: createRequire(args.importer).resolve(args.path), external: true }));
  },
};

async function bundle(entry: string, outfile: string): Promise<void> {
  // built beside, then renamed: test files building at the same time never run a half-written bundle
  const tmp = `${outfile}.${process.pid}.tmp.mjs`;
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@ctxgit/source'],
    plugins: [ranksOutside],
    logLevel: 'error',
    // CommonJS dependencies bundled into ESM call require() for node's built-ins
    banner: { js: "import { createRequire as __ctxgitRequire } from 'node:module'; const require = __ctxgitRequire(import.meta.url);" },
  });
  renameSync(tmp, outfile);
}

/** Builds {@link CRASH_WORKER}, {@link CLI_BUNDLE} and {@link DIE_AT_WRITE} (about a second). */
export async function buildBundles(): Promise<void> {
  mkdirSync(BUILD_DIR, { recursive: true });
  writeFileSync(join(BUILD_DIR, '.gitignore'), '*\n');
  await Promise.all([bundle('packages/commit/test/reliability/fixtures/crash-worker.ts', CRASH_WORKER), bundle('packages/cli/src/bin.ts', CLI_BUNDLE), bundle('packages/commit/test/reliability/fixtures/die-at-write.ts', DIE_AT_WRITE)]);
}
