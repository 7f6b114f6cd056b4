// The chat backend serves the web viewer at `/`, over its own Session objects: the occupancy ring shows the usage the
// provider reported (measured, with calibration), and a page open in Chromium shows a new turn as it lands (SSE).
import { openRepo } from '@ctxgit/commit';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../packages/viewer/test/browser.js';
import { ensureBundle } from '../../../packages/viewer/test/fixture.js';
import { openaiClient } from '../src/model-client.js';
import { buildServer } from '../src/server.js';
import { startFakeProvider } from './fake-provider.js';
import type { FakeProvider } from './fake-provider.js';

const WAIT = { timeout: 120_000 };
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
let browser: Browser;

const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
};

beforeAll(async () => {
  await ensureBundle();
  fake = await startFakeProvider();
  let t = 1_700_000_000_000;
  const repo = await openRepo({ memory: true, clock: () => (t += 1000) });
  app = buildServer({ repo, client: openaiClient({ apiKey: 'test-key', baseURL: `${fake.url}/v1`, maxRetries: 0 }) });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.close();
});

describe('the chat backend mounts the viewer', () => {
  it('answers GET / with the viewer, and its occupancy is the measured record of the backend’s session', async () => {
    await post('/sessions', { name: 'chat' });
    fake.script('Hello! How can I help?');
    const turn = await post('/sessions/chat/messages', { content: 'Hi there' });
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await home.text()).toContain('<div id="app"></div>');
    const occ = (await (await fetch(`${base}/api/sessions/chat/occupancy`)).json()) as { record: unknown };
    expect(occ.record).toEqual(turn['occupancy']);
    expect(occ.record).toMatchObject({ basis: 'measured' });
    expect((await fetch(`${base}/api/sessions`, { method: 'DELETE' })).status).toBe(405);
  });

  it('shows a turn in an open page as it lands (server-sent events), without a reload', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/#/s/chat/timeline`);
    await page.getByTestId('commit-link').first().waitFor(WAIT);
    await page.locator('[data-testid=live]', { hasText: 'live' }).waitFor(WAIT);
    const before = await page.getByTestId('commit-link').count();
    expect(await page.getByTestId('occ-basis').textContent()).toBe('measured');
    await page.getByTestId('occ-calibration').waitFor(WAIT);
    fake.script('Sure, here is more.');
    await post('/sessions/chat/messages', { content: 'Tell me more' });
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=commit-link]').length === n + 1, before, WAIT);
    expect(await page.getByTestId('occ-basis').textContent()).toBe('measured');
    await page.close();
  });
});

declare const document: { querySelectorAll(selector: string): { readonly length: number } };
