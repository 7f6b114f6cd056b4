// Runs every ```ts code sample of README.md and docs/*.md, so the guides cannot drift from the code. Each sample is
// written to test/.samples/ (git-ignored) and imported, so `@ctxgit/*` resolves through the vitest aliases. A block
// tagged `ts no-run` is only shown; samples assert their own results with node:assert. Each sample runs in a fresh
// temporary working directory, with the OpenAI and Anthropic SDKs pointed (by their environment variables) at the
// fake provider of the chat-backend tests, so samples that call a model run offline and deterministically.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeProvider } from '../examples/chat-backend/test/fake-provider.js';
import type { FakeProvider } from '../examples/chat-backend/test/fake-provider.js';
import { fencedBlocks } from './fenced-blocks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'test', '.samples');

const docs = [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))];
const samples = docs.flatMap((path) => fencedBlocks(readFileSync(path, 'utf8'), path.slice(root.length + 1)));
const runnable = samples.filter((s) => /^(ts|typescript)$/.test(s.info));
const shownOnly = samples.filter((s) => /^(ts|typescript)\s+no-run$/.test(s.info));

let fake: FakeProvider;
const saved = { cwd: process.cwd(), env: { ...process.env } };
beforeAll(async () => {
  fake = await startFakeProvider();
  Object.assign(process.env, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${fake.url}/v1`, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url });
});
afterAll(async () => {
  rmSync(outDir, { recursive: true, force: true });
  process.chdir(saved.cwd);
  for (const k of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL']) {
    if (saved.env[k] === undefined) delete process.env[k];
    else process.env[k] = saved.env[k];
  }
  await fake.close();
});

describe('code samples of README.md and docs/*.md', () => {
  it('finds the samples, and keeps `ts no-run` blocks rare', () => {
    expect(runnable.length).toBeGreaterThan(5);
    expect(shownOnly.length).toBeLessThanOrEqual(Math.ceil(runnable.length / 10));
  });

  it('the getting-started sample is examples/minimal.ts', () => {
    const guide = fencedBlocks(readFileSync(join(root, 'docs', 'getting-started.md'), 'utf8'), 'docs/getting-started.md').filter((b) => b.info === 'ts');
    const example = readFileSync(join(root, 'examples', 'minimal.ts'), 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('//'))
      .join('\n')
      .trim();
    expect(guide[0]?.code.trim()).toBe(example);
  });

  it('splits fenced blocks with their info strings and lines', () => {
    const md = ['# t', '```ts', 'const a = 1;', '```', 'text', '```sh no-run', 'ls', '```'].join('\n');
    expect(fencedBlocks(md, 'x.md')).toEqual([
      { file: 'x.md', line: 2, info: 'ts', code: 'const a = 1;' },
      { file: 'x.md', line: 6, info: 'sh no-run', code: 'ls' },
    ]);
  });

  for (const s of runnable) {
    it(`${s.file}:${s.line} runs`, async () => {
      mkdirSync(outDir, { recursive: true });
      const name = `${s.file.replace(/[^A-Za-z0-9]+/g, '_')}_${s.line}.ts`;
      const path = join(outDir, name);
      writeFileSync(path, `${s.code}\nexport {};\n`);
      const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      process.chdir(mkdtempSync(join(tmpdir(), 'ctxgit-sample-')));
      try {
        await import(pathToFileURL(path).href);
      } finally {
        process.chdir(saved.cwd);
        log.mockRestore();
      }
      expect(fake.requests.filter((r) => r.issues.length > 0).map((r) => r.issues)).toEqual([]);
    });
  }
});
