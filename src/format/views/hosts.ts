// How a monitored host (process) looks to a person: id, host:port, type, replica set, last ping.
import type { Host } from '../../api/types.js';
import type { ListView } from '../answers.js';
import { age } from '../markdown.js';
/** "db-1.example.com:27017": how people name a process. */
export const hostAddress = (h: Pick<Host, 'hostname' | 'port'>) =>
  h.port !== undefined ? `${h.hostname ?? '?'}:${h.port}` : h.hostname;

export const hostList: ListView<Host> = {
  columns: ['hostId', 'host', 'type', 'replica set', 'last ping'],
  row: (h: Host, now: Date) => [
    h.id,
    hostAddress(h),
    h.typeName,
    h.replicaSetName,
    age((h as Record<string, unknown>).lastPing, now),
  ],
};
