// Debian's Chromium driven by playwright-core: what the browser tests and the bench open pages with.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Where the project's setup (scripts/run.mjs) installs Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** Launches headless Chromium; fails with what to do when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run \`npm test\` as root (it installs Debian's chromium) or \`apt-get install -y chromium\``);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}
