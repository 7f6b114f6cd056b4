// The viewer in a real browser (Debian's Chromium through playwright-core): a corpus-imported repository served on an
// ephemeral loopback port; every view is opened the way a person would, and what it shows is compared with the public
// API of @ctxgit/commit. Then a hostile transcript: nothing in it may run. Screenshots go to a temp directory, or to
// docs/viewer/ with UPDATE_SCREENSHOTS=1 (the committed ones shown in the README and docs/viewer.md).
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '@ctxgit/commit';
import { openRepo } from '@ctxgit/commit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.js';
import { buildCorpusRepo, buildHostileRepo, root, serve, tempDir } from './fixture.js';
import type { CorpusRepo, Served } from './fixture.js';

// What the functions evaluated in the page use (the tests are type-checked without the DOM library).
declare const document: {
  querySelectorAll(selector: string): { readonly length: number };
  querySelector(selector: string): { readonly textContent: string | null } | null;
};
declare const window: { readonly __pwned?: unknown };

const shots = process.env['UPDATE_SCREENSHOTS'] === '1' ? join(root, 'docs', 'viewer') : tempDir('ctxgit-shots-');
const WAIT = { timeout: 120_000 };

let browser: Browser;
let fx: CorpusRepo;
let repo: Repo;
let srv: Served;

const int = (n: number): string => n.toLocaleString('en-US');

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(shots, { recursive: true });
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path, fullPage });
  expect(statSync(path).size).toBeGreaterThan(5_000);
}

beforeAll(async () => {
  browser = await launchChromium();
  fx = await buildCorpusRepo();
  repo = await openRepo({ dir: fx.dir });
  srv = await serve({ repo, allowedHosts: ['127.0.0.1'] });
});
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

describe('the viewer in Chromium', () => {
  it('lists sessions, opens one, switches a sibling, opens a commit, expands a summary, opens a diff; the ring says what session.occupancy() says', async () => {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

    // sessions, and the search
    await page.goto(`${srv.url}/#/`);
    await page.getByTestId('session-link').first().waitFor(WAIT);
    expect(await page.getByTestId('session-link').allTextContents()).toEqual(['eps', 'eps-alt', 'simple']);
    await page.setViewportSize({ width: 1360, height: 340 });
    await shoot(page, 'sessions');
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.getByTestId('session-search').fill('alt');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-link]').length === 1, undefined, WAIT);
    expect(await page.getByTestId('session-link').allTextContents()).toEqual(['eps-alt']);
    await page.getByTestId('session-search').fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-link]').length === 3, undefined, WAIT);

    // one session: its timeline and its occupancy ring
    await page.getByTestId('session-link').first().click();
    await page.getByTestId('commit-link').first().waitFor(WAIT);
    const s = await repo.openSession('eps');
    const log = await s.log();
    expect(await page.getByTestId('commit-link').count()).toBe(log.length);
    const occ = await s.occupancy();
    await page.getByTestId('occ-used').waitFor(WAIT);
    expect(await page.getByTestId('occ-used').textContent()).toBe(int(occ.total_used));
    expect(await page.getByTestId('occ-window').textContent()).toBe(int(occ.window));
    expect(await page.getByTestId('occ-basis').textContent()).toBe(occ.basis);
    expect(await page.getByTestId('occ-estimated').textContent()).toBe(int(occ.estimated));
    expect(await page.locator('svg.ring').getAttribute('aria-label')).toBe(`${(100 * (occ.total_used / occ.window)).toFixed(1)}% of the window in use`); // the share first, as the ring rounds it
    await shoot(page, 'timeline');

    // the DAG: shapes per role, the head marked, a sibling switched (display-only)
    const head = await s.head();
    await page.getByTestId('tab-dag').click();
    await page.getByTestId('dag-node').first().waitFor(WAIT);
    const roles = new Set(await page.getByTestId('dag-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-role'))));
    expect([...roles].sort()).toEqual(['assistant', 'system', 'tool', 'user']);
    const shapes = await page.getByTestId('dag-node').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-role')}:${e.querySelector('.shape')?.tagName}`));
    expect(new Set(shapes)).toEqual(new Set(['system:polygon', 'user:rect', 'assistant:rect', 'tool:polygon']));
    // each tool call hangs under its assistant
    expect(await page.locator('path.edge.call').count()).toBe(await page.locator('[data-testid=dag-node][data-role=tool]').count());
    expect(await page.locator('[data-testid=dag-node][data-head=true]').getAttribute('data-id')).toBe(head);
    expect(await page.locator('[data-testid=dag-session]').count()).toBeGreaterThan(0); // the fork to eps-alt
    const retried = page.locator(`[data-testid=dag-node][data-id="${fx.retried}"]`);
    await retried.scrollIntoViewIfNeeded();
    expect(await retried.getByTestId('sib-label').textContent()).toBe('1/2');
    await shoot(page, 'dag');
    await retried.getByTestId('sib-next').click();
    const retry = page.locator(`[data-testid=dag-node][data-id="${fx.retry}"]`);
    await retry.waitFor(WAIT);
    expect(await retry.getByTestId('sib-label').textContent()).toBe('2/2');
    await page.getByTestId('off-head').waitFor(WAIT);
    expect(await s.head()).toBe(head); // display-only
    await page.getByTestId('dag-head').click();
    await page.locator(`[data-testid=dag-node][data-id="${head}"]`).waitFor(WAIT);

    // a commit: items with badges, a summary expanded and verified
    const latest = await repo.readCommit(log[0]?.id ?? '');
    await page.getByTestId('tab-timeline').click();
    await page.getByTestId('commit-link').first().click();
    await page.getByTestId('item').first().waitFor(WAIT);
    const states = await page.getByTestId('item').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(states).toEqual(latest.items.filter((i) => i.state !== 'summarized').map((i) => i.state));
    const summary = latest.items.find((i) => i.state === 'summary');
    const expanded = await s.expand(summary?.key ?? '', { commit: latest.id });
    await page.locator('[data-testid=item][data-state=summary]').first().getByTestId('expand').click();
    await page.getByTestId('verified').first().waitFor(WAIT);
    expect(await page.getByTestId('verified').first().textContent()).toBe('✓ verified');
    expect(await page.getByTestId('expanded').first().getByTestId('original').count()).toBe(expanded.originals.length);
    await shoot(page, 'commit');

    // the rendered request, per provider
    await page.getByTestId('tab-request').click();
    await page.getByTestId('request').waitFor(WAIT);
    expect(await page.getByTestId('request').textContent()).toContain('"model": "gpt-4o"');
    await page.getByTestId('provider-text').click();
    await page.waitForFunction(() => !(document.querySelector('[data-testid=request]')?.textContent ?? '').startsWith('{'), undefined, WAIT);
    await page.getByTestId('provider-anthropic').click();
    await page.waitForFunction(() => (document.querySelector('[data-testid=request]')?.textContent ?? '').includes('"max_tokens"'), undefined, WAIT);
    await shoot(page, 'request');

    // the diff against the parent: changed items, where the cached prefix breaks
    await page.getByTestId('tab-diff').click();
    await page.getByTestId('prefix-break').waitFor(WAIT);
    expect(await page.getByTestId('change').count()).toBe((await repo.diff(latest.parentIds[0] ?? '', latest.id)).changes.length);
    expect(await page.getByTestId('prefix-break').textContent()).toContain(`Cached prefix breaks at item ${latest.summary.firstChangedIndex}`);
    await shoot(page, 'diff');

    // the charts
    await page.goto(`${srv.url}/#/s/eps/charts`);
    await page.getByTestId('chart-tokens').waitFor(WAIT);
    await page.getByTestId('chart-cost').waitFor(WAIT);
    await shoot(page, 'charts');

    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders a hostile transcript as text: no script runs, no dialog opens, no link or image is made of it', async () => {
    const hostile = await buildHostileRepo();
    const h = await serve({ repo: await openRepo({ dir: hostile.dir }) });
    try {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      const dialogs: string[] = [];
      const violations: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()));
      const pwned = (): Promise<unknown> => page.evaluate(() => window.__pwned);
      const inert = async (): Promise<void> => {
        expect(await pwned()).toBeUndefined();
        expect(dialogs).toEqual([]);
        expect(await page.locator('main script, main img, main iframe, main svg[onload], a[href^="javascript:" i]').count()).toBe(0);
        expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(1); // the bundle
      };
      const [last] = await (await hostile.repo.openSession('hostile')).log({ limit: 1 });
      const commit = last?.id ?? '';

      await page.goto(`${h.url}/#/s/hostile/c/${commit}/items`);
      await page.getByTestId('item').first().waitFor(WAIT);
      const text = await page.locator('pre.content').first().textContent();
      expect(text).toContain('<script>window.__pwned = "script"</script>');
      expect(text).toContain('&lt;b&gt;not bold&lt;/b&gt;');
      expect(text).toContain('U+202E'); // the bidi override, shown instead of applied
      expect(text).not.toContain('\u202E');
      await inert();
      await shoot(page, 'hostile');

      for (const tab of ['request', 'diff']) {
        await page.getByTestId(`tab-${tab}`).click();
        await page.getByTestId(tab === 'request' ? 'request' : 'prefix-break').waitFor(WAIT);
        await inert();
      }
      await page.goto(`${h.url}/#/s/hostile/dag`);
      await page.getByTestId('dag-node').first().waitFor(WAIT);
      for (const node of await page.getByTestId('dag-node').all()) {
        await node.click();
        await page.getByTestId('node-detail').waitFor(WAIT);
        await inert();
      }
      await page.goto(`${h.url}/#/s/hostile/timeline`);
      await page.getByTestId('commit-link').first().waitFor(WAIT);
      await page.goto(`${h.url}/#/`);
      await page.getByTestId('session-link').first().waitFor(WAIT);
      await inert();
      expect(violations).toEqual([]);
      await page.close();
    } finally {
      await h.close();
    }
  });
});
