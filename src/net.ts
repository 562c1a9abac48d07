// Loopback addresses: the only places servers of this project listen by default.

/** Host names that always mean this machine (as used in a Host header or a bind address). */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A Host header ("127.0.0.1:3000", "[::1]:3000", "localhost") that names this machine: refuses DNS rebinding. */
export function isLoopbackHost(header: string | undefined): boolean {
  if (!header) return false;
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0];
  return name !== undefined && isLoopback(name);
}
