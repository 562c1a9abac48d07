// The 2025 era's sessions (initialize → Mcp-Session-Id), kept so that elicitation, which needs a
// server→client request, keeps working. Idle sessions are closed, and a cap holds the sessions kept at once,
// per person and in total (the least recently used idle one makes room; none idle → the caller answers 503).
// A session belongs to the person who opened it. With replicas, each session held is recorded in the shared
// directory (so the others pass its requests on here) and released when it closes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Person } from '../../identity/index.js';
import type { Logger } from '../../log.js';
import { gauge } from '../../metrics.js';
import type { SessionDirectory } from '../../state/sessions.js';
import { endSubscriptions } from '../listen.js';

export interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** POST requests being answered (an open GET stream does not make a session busy). */
  inFlight: number;
  /** Open GET streams: the client hears of changes only through one, so its subscriptions end with the last. */
  streams: number;
  /** The person who opened it: only they may use it. */
  person: string;
}

interface SessionsOptions {
  idleMs: number;
  /** Sessions held at once. */
  max: number;
  /** Sessions one person may hold at once (Infinity where people are not told apart). */
  perPerson: number;
  logger: Logger;
  directory?: SessionDirectory;
  /** What the directory records for a session held here (absent: nothing is recorded). */
  entry?: (id: string) => string;
}

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions(o: SessionsOptions) {
  const held = new Map<string, Session>();
  gauge('dbops_http_sessions', '2025-era HTTP sessions held now', () => held.size);
  const hold = async (id: string) => {
    if (o.entry) await o.directory?.hold(id, o.entry(id), o.idleMs).catch(() => {});
  };
  const release = (id: string) => void o.directory?.release(id).catch(() => {});
  const drop = (id: string, s: Session) => {
    held.delete(id);
    release(id);
    void s.server.close().catch(() => {});
  };
  const sweep = setInterval(() => closeIdle(held, o.idleMs, drop), Math.min(o.idleMs, 60_000));
  sweep.unref();

  return {
    max: o.max,
    size: () => held.size,
    /** Sessions answering a POST now. */
    busy: () => [...held.values()].filter((s) => s.inFlight > 0).length,
    get: (id: string) => held.get(id),
    /** Why a new session of this person cannot be held now (after making room where one is idle), or undefined. */
    noRoomFor(person: Person): string | undefined {
      const own = [...held].filter(([, s]) => s.person === person.id);
      if (own.length >= o.perPerson && !evictIdle(own))
        return `Your ${o.perPerson} sessions (${person.id}) are all busy (DBOPS_HTTP_MAX_SESSIONS_PER_PERSON); retry shortly`;
      if (held.size >= o.max && !evictIdle([...held]))
        return `All ${o.max} sessions are busy (DBOPS_HTTP_MAX_SESSIONS); retry shortly`;
      return undefined;
    },
    /** A request for a session held here: seen now (here and in the directory), busy while a POST is answered. */
    use(id: string, s: Session, req: IncomingMessage, res: ServerResponse) {
      s.lastSeen = Date.now();
      void hold(id);
      if (req.method === 'POST') {
        s.inFlight++;
        res.once('close', () => s.inFlight--);
      }
      if (req.method === 'GET') {
        s.streams++;
        res.once('close', () => {
          if (--s.streams === 0) endSubscriptions(s.server);
        });
      }
    },
    /** Opens a session for the person with this server and answers its initialize request. */
    async open(person: Person, mcp: McpServer, req: IncomingMessage, res: ServerResponse, body: unknown) {
      // Recorded before the client learns the id: its next request may reach another replica at once.
      const id = randomUUID();
      await hold(id);
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessioninitialized: () => {
          held.set(id, {
            transport,
            server: mcp,
            lastSeen: Date.now(),
            inFlight: 0,
            streams: 0,
            person: person.id,
          });
        },
      });
      transport.onclose = () => {
        if (!transport.sessionId) return;
        held.delete(transport.sessionId);
        release(transport.sessionId);
      };
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
      if (!held.has(id)) release(id);
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...held.values()].map((s) => s.server.close().catch(() => {})));
      held.clear();
    },
  };

  /** Closes the least recently used of these sessions with nothing in flight; false when all are busy. */
  function evictIdle(among: Array<[string, Session]>): boolean {
    let victim: [string, Session] | undefined;
    for (const entry of among)
      if (entry[1].inFlight === 0 && (!victim || entry[1].lastSeen < victim[1].lastSeen)) victim = entry;
    if (!victim) return false;
    held.delete(victim[0]);
    release(victim[0]);
    o.logger.info('session closed to make room (DBOPS_HTTP_MAX_SESSIONS)', { maxSessions: o.max });
    void victim[1].server.close().catch(() => {});
    return true;
  }
}

/** Closes the sessions not seen for `idleMs`. */
function closeIdle(held: Map<string, Session>, idleMs: number, drop: (id: string, s: Session) => void) {
  const cutoff = Date.now() - idleMs;
  for (const [id, s] of held) if (s.lastSeen < cutoff) drop(id, s);
}
