// The views' size budget and self-containment, checked on what `npm run build` wrote to dist/apps/ (the files
// the ui:// resources serve). Budget per view: ≤ 280 KB raw, ≤ 72 KB gzip. Of that, ext-apps' App with the MCP
// SDK's Protocol and zod (which App needs to speak to the host) is ~239 KB / ~60 KB minified on its own
// (measured with an empty view, ext-apps 2.0.4); the views' own code and style are ~10–15 KB / ~4–5 KB.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VIEWS } from '../../src/mcp/apps.js';

const RAW = 280_000;
const GZIP = 72_000;

describe('views (MCP Apps) as built', () => {
  for (const view of Object.keys(VIEWS)) {
    const html = readFileSync(new URL(`../../dist/apps/${view}.html`, import.meta.url));
    const text = html.toString('utf8');

    it(`${view}: within the size budget`, () => {
      expect(html.length, 'raw bytes').toBeLessThanOrEqual(RAW);
      expect(gzipSync(html).length, 'gzip bytes').toBeLessThanOrEqual(GZIP);
    });

    it(`${view}: one self-contained file that names nothing to load`, () => {
      expect(text).toMatch(/^<!doctype html>/);
      // One inline script and one inline style; no element that loads anything.
      expect(text.match(/<script\b/g)).toHaveLength(1);
      expect(text).not.toMatch(/<script[^>]*\bsrc=/i);
      expect(text).not.toMatch(/<(link|img|iframe|object|embed|base)\b/i);
      const css = /<style>([\s\S]*?)<\/style>/.exec(text)?.[1] ?? '';
      expect(css.length).toBeGreaterThan(0);
      expect(css).not.toMatch(/@import|url\(/i);
      // Platform text reaches the page as text only: the views' code never writes markup.
      expect(text).not.toMatch(/\.innerHTML\s*=|insertAdjacentHTML|document\.write\(/);
    });
  }
});
