// How a monitored host (process) looks to a person: id, host:port, type, replica set, last ping.
import type { Host } from '../../api/types.js';
import type { ListView } from '../answers.js';
import { age } from '../markdown.js';
export const hostList: ListView<Host> = {
  columns: ['hostId', 'host', 'type', 'replica set', 'last ping'],
  row: (h: Host, now: Date) => [
    h.id,
    h.port !== undefined ? `${h.hostname ?? '?'}:${h.port}` : h.hostname,
    h.typeName,
    h.replicaSetName,
    age((h as Record<string, unknown>).lastPing, now),
  ],
};
