// Debian's Chromium for the browser tests, driven by playwright-core, started the way this machine needs:
// headless, no sandbox (root), no background networking (the closed network refuses it), a fresh profile.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(viewport = { width: 900, height: 900 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'dbops-chromium-'));
  // launchPersistentContext is how playwright takes a --user-data-dir: a fresh one per run.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport,
    timeout: 45_000,
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Chromium for one describe block: started before its tests, closed after; call the getter inside a test. */
export function withChromium(viewport?: { width: number; height: number }): () => BrowserContext {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium(viewport);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium did not start');
    return browser.context;
  };
}
