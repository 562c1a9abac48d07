// Host names as people type them — "db-prod-06", "db-prod-06.example.internal", "db-prod-06:27017" or a host
// id — matched by one rule wherever a host is accepted or compared (hostId arguments, list_hosts' host, events'
// target, agents with their alerts, a host's alerts). Pure: the look-ups are src/feeds/names.ts.

/** Host ids as the platform makes them (32 hex characters); anything else given as a hostId is a name. */
export const HOST_ID = /^[0-9a-f]{32}$/i;

/** A host as typed: its name in lower case, and the port when one was given ("db-prod-06:27017"). */
interface HostName {
  name: string;
  port?: number;
}

/** "db-prod-06.example.internal:27017" → { name: "db-prod-06.example.internal", port: 27017 }. */
export function hostName(typed: string): HostName {
  const t = typed.trim().toLowerCase();
  const m = /^(.*):(\d{1,5})$/.exec(t);
  return m ? { name: m[1] as string, port: Number(m[2]) } : { name: t };
}

/** The short name: the first label ("db-prod-06"). */
export const shortName = (hostname: string) => hostname.toLowerCase().split('.')[0] as string;

/** One name is the other, or the other with more of its domain: "db-prod-06" ~ "db-prod-06.example.internal". */
const sameName = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/** A record that names a host: a host, an event, an alert's "hostname:port", an agent. */
interface HostRef {
  id?: string;
  hostname?: string;
  port?: number | string;
}

/** Whether what a person typed names this host: its id, or its name with or without domain, port if given. */
export function hostMatches(typed: string | HostName, h: HostRef): boolean {
  const q = typeof typed === 'string' ? hostName(typed) : typed;
  if (h.id && h.id.toLowerCase() === q.name) return true;
  if (!h.hostname || !q.name) return false;
  const r = hostName(h.hostname);
  const port = h.port !== undefined && h.port !== '' ? Number(h.port) : r.port;
  if (q.port !== undefined && port !== undefined && q.port !== port) return false;
  return sameName(r.name, q.name);
}

/** Edit distance, bounded: names differ by a few characters at most to be "near". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(cur + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

/** Up to five short names within three edits of the typed one, or containing it, closest first. */
export function nearNames(typed: string, hostnames: string[]): string[] {
  const q = shortName(hostName(typed).name);
  const scored = [...new Set(hostnames.map(shortName))]
    .map((n) => ({ n, d: n.includes(q) || q.includes(n) ? 0.5 : distance(q, n) }))
    .filter((x) => x.d <= 3)
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n));
  return scored.slice(0, 5).map((x) => x.n);
}
