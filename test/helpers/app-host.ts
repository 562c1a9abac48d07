// A minimal MCP Apps host for the browser tests: a loopback page whose script (app-host-page.ts, bundled
// here with rolldown) embeds apps with ext-apps' AppBridge. The page is the only origin the browser may
// reach; the apps it hosts must need nothing else.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

let script: Promise<string> | undefined;
function hostScript(): Promise<string> {
  script ??= build({
    input: fileURLToPath(new URL('./app-host-page.ts', import.meta.url)),
    platform: 'browser',
    write: false,
    logLevel: 'warn',
    output: { format: 'iife', minify: true, codeSplitting: false },
  }).then((b) => b.output[0].code.replace(/<\/(script)/gi, '<\\/$1'));
  return script;
}

export async function startAppHost(): Promise<{ url: string; origin: string; close(): Promise<void> }> {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>test host</title><style>
body{margin:0;padding:16px;font-family:system-ui} iframe{width:100%;min-height:200px;border:0;display:block;background:transparent}
</style></head><body><script>${await hostScript()}</script></body></html>`;
  const server = createServer((req, res) => {
    if (req.url !== '/') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
