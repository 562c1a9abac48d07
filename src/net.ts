// Loopback addresses: the only places servers of this project listen by default.

/** Host names that always mean this machine (as used in a Host header or a bind address). */
export const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}
