// The test host's page script (runs in Chromium): it embeds a app the way an MCP Apps host does, with
// ext-apps' AppBridge over a PostMessage transport to a sandboxed iframe, and applies the CSP the app's
// resource declares. Tool calls the app asks for go to window.hostCallTool, which the test wires to the
// real server's MCP client: the host forwards, the server decides.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
}

interface Show {
  html: string;
  /** null: no CSP at all (a lax host), so anything the app tried to load would reach the network. */
  csp: Csp | null;
  result: Record<string, unknown>;
  theme: 'light' | 'dark';
  /** The host's CSS variables (host context styles), e.g. {'--color-background-primary': '#123'}. */
  variables?: Record<string, string>;
  /** More host context: its time zone, its container's dimensions (e.g. {containerDimensions: {width: 360}}). */
  context?: Record<string, unknown>;
}

declare global {
  interface Window {
    hostCallTool(params: unknown): Promise<Record<string, unknown>>;
    showView(s: Show): Promise<void>;
    openedLinks: string[];
  }
}

/** The CSP a host builds from the resource's _meta.ui.csp (the spec's mapping; no domain → no network). */
function policy(csp: Csp): string {
  const res = (csp.resourceDomains ?? []).join(' ');
  const con = (csp.connectDomains ?? []).join(' ') || "'none'";
  const frames = (csp.frameDomains ?? []).join(' ') || "'none'";
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${res}`.trim(),
    `style-src 'unsafe-inline' ${res}`.trim(),
    `img-src data: ${res}`.trim(),
    `font-src ${res || "'none'"}`,
    `connect-src ${con}`,
    `frame-src ${frames}`,
    "base-uri 'none'",
  ].join('; ');
}

window.openedLinks = [];
window.showView = async ({ html, csp, result, theme, variables, context }) => {
  document.querySelector('iframe')?.remove();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'view';
  const meta = csp ? `<meta http-equiv="Content-Security-Policy" content="${policy(csp)}">` : '';
  frame.srcdoc = html.replace('<head>', `<head>${meta}`);
  document.body.style.background = theme === 'dark' ? '#0b0f19' : '#e5e7eb';
  document.body.append(frame);
  const bridge = new AppBridge(
    null,
    { name: 'dbops-mcp test host', version: '1' },
    { serverTools: {}, openLinks: {} },
    {
      hostContext: {
        theme,
        displayMode: 'inline',
        platform: 'web',
        ...(variables ? { styles: { variables: variables as never } } : {}),
        ...context,
      },
    },
  );
  bridge.oncalltool = async (params) => (await window.hostCallTool(params)) as never;
  bridge.onopenlink = async ({ url }) => {
    window.openedLinks.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height)}px`;
  };
  const ready = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  const win = frame.contentWindow;
  if (!win) throw new Error('no frame window');
  await bridge.connect(new PostMessageTransport(win, win));
  await ready;
  await bridge.sendToolResult(result as never);
};
