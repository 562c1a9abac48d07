// How an agent looks to a person: host, state, last configuration and ping, managed, tag.
import type { Agent } from '../../api/types.js';
import type { ListView } from '../answers.js';
import { age } from '../markdown.js';
export const agentList: ListView<Agent> = {
  columns: ['hostname', 'state', 'last conf', 'last ping', 'managed', 'tag'],
  row: (a: Agent, now: Date) => [
    a.hostname,
    a.stateName,
    age(a.lastConf, now),
    age(a.lastPing, now),
    a.isManaged === undefined ? undefined : a.isManaged ? 'yes' : 'no',
    a.tag,
  ],
};
