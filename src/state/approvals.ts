// Where approval records live: in this process (the default, one server) or in the shared store (Redis, for
// replicas), behind one interface. A record is an immutable body (JSON written once) plus its state, changed
// only by compare-and-set, so a decision made on one replica and an execution claimed on another can never
// both win a race. Pending records are capped per owner (a record has several: the person, their session or
// client) and in total, atomically with their insertion.
import type { RedisState } from './redis.js';

export interface StoredRecord {
  body: string;
  state: string;
  decidedAtMs?: number;
  /** Who decided it (the approval page's viewer). */
  decidedBy?: string;
}

interface NewRecord {
  id: string;
  body: string;
  /** Each owner holds at most its cap of pending records (caps.perOwner, same order). */
  owners?: string[];
  expiresAtMs: number;
  /** How long the record is kept after it expires (a late resume still gets a precise answer). */
  keepMs: number;
}

export interface RecordStore {
  /** Adds a pending record, or says which cap is reached: the index of the full owner, or 'total'. */
  insert(
    r: NewRecord,
    caps: { perOwner: number[]; total: number },
    nowMs: number,
  ): Promise<'ok' | 'total' | number>;
  get(id: string): Promise<StoredRecord | undefined>;
  /** Pending records not yet expired. */
  pending(nowMs: number): Promise<StoredRecord[]>;
  /**
   * Sets the state to `to` if it is one of `from` (atomically); returns whether it changed and the record as
   * it is now, or undefined when there is no such record.
   */
  transition(
    id: string,
    from: string[],
    to: string,
    decided?: { atMs: number; by?: string },
  ): Promise<{ changed: boolean; record: StoredRecord } | undefined>;
}

interface Held extends StoredRecord {
  owners: string[];
  expiresAtMs: number;
  dropAtMs: number;
}

export function memoryRecords(): RecordStore {
  const records = new Map<string, Held>();
  const view = (h: Held): StoredRecord => ({
    body: h.body,
    state: h.state,
    ...(h.decidedAtMs !== undefined ? { decidedAtMs: h.decidedAtMs } : {}),
    ...(h.decidedBy !== undefined ? { decidedBy: h.decidedBy } : {}),
  });
  const live = (nowMs: number) => {
    for (const [id, h] of records) if (h.dropAtMs <= nowMs) records.delete(id);
    return [...records.values()].filter((h) => h.state === 'pending' && h.expiresAtMs > nowMs);
  };
  return {
    async insert(r, caps, nowMs) {
      const pending = live(nowMs);
      const owners = r.owners ?? [];
      const full = owners.findIndex(
        (o, i) => pending.filter((h) => h.owners.includes(o)).length >= (caps.perOwner[i] ?? Infinity),
      );
      if (full >= 0) return full;
      if (pending.length >= caps.total) return 'total';
      records.set(r.id, {
        body: r.body,
        state: 'pending',
        owners,
        expiresAtMs: r.expiresAtMs,
        dropAtMs: r.expiresAtMs + r.keepMs,
      });
      return 'ok';
    },
    async get(id) {
      const h = records.get(id);
      return h && view(h);
    },
    async pending(nowMs) {
      return live(nowMs).map(view);
    },
    async transition(id, from, to, decided) {
      const h = records.get(id);
      if (!h) return undefined;
      if (!from.includes(h.state)) return { changed: false, record: view(h) };
      h.state = to;
      if (decided) h.decidedAtMs = decided.atMs;
      if (decided?.by !== undefined) h.decidedBy = decided.by;
      return { changed: true, record: view(h) };
    },
  };
}

// One hash per record (body, state, owners, expiresAt, decidedAt, decidedBy), a sorted set of pending ids
// (score: expiry) and one per owner. Every script drops pending entries that have expired before it counts.
// INSERT: KEYS = record, pending, owner sets…; ARGV = now, body, expiresAt, keepMs, id, total, owners (one
// line each), then each owner's cap.
const INSERT = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for i = 3, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[1])
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[5 + i]) then return i - 3 end
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return 'total' end
redis.call('HSET', KEYS[1], 'body', ARGV[2], 'state', 'pending', 'owners', ARGV[7], 'expiresAt', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], tonumber(ARGV[3]) + tonumber(ARGV[4]))
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[5])
for i = 3, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[3], ARGV[5])
  redis.call('PEXPIREAT', KEYS[i], ARGV[3])
end
return 'ok'`;

const PENDING = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local out = {}
for _, id in ipairs(ids) do
  local r = redis.call('HMGET', ARGV[2] .. id, 'body', 'state', 'decidedAt', 'decidedBy')
  if r[1] and r[2] == 'pending' then table.insert(out, r) end
end
return out`;

// TRANSITION: ARGV = to, decidedAt, id, owner-key prefix, decidedBy, then the states it may move from.
const TRANSITION = `
local r = redis.call('HMGET', KEYS[1], 'body', 'state', 'decidedAt', 'decidedBy', 'owners')
if not r[1] then return nil end
local allowed = false
for i = 6, #ARGV do if ARGV[i] == r[2] then allowed = true end end
if not allowed then return {0, r[1], r[2], r[3], r[4]} end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'decidedAt', ARGV[2]); r[3] = ARGV[2] end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'decidedBy', ARGV[5]); r[4] = ARGV[5] end
if r[2] == 'pending' then
  redis.call('ZREM', KEYS[2], ARGV[3])
  if r[5] then
    for owner in string.gmatch(r[5], '[^\\n]+') do redis.call('ZREM', ARGV[4] .. owner, ARGV[3]) end
  end
end
return {1, r[1], ARGV[1], r[3], r[4]}`;

type Row = [string, string, string | null, string | null];
const record = ([body, state, decidedAt, decidedBy]: Row): StoredRecord => ({
  body,
  state,
  ...(decidedAt ? { decidedAtMs: Number(decidedAt) } : {}),
  ...(decidedBy ? { decidedBy } : {}),
});

export function redisRecords(redis: RedisState): RecordStore {
  const p = `${redis.prefix}approval:`;
  const pendingKey = `${redis.prefix}approvals:pending`;
  const ownerKey = `${redis.prefix}approvals:owner:`;
  return {
    async insert(r, caps, nowMs) {
      const owners = r.owners ?? [];
      return (await redis.eval(
        INSERT,
        [p + r.id, pendingKey, ...owners.map((o) => ownerKey + o)],
        [
          nowMs,
          r.body,
          r.expiresAtMs,
          r.keepMs,
          r.id,
          caps.total,
          owners.join('\n'),
          ...owners.map((_, i) => caps.perOwner[i] ?? 1e9),
        ],
      )) as 'ok' | 'total' | number;
    },
    async get(id) {
      const row = (await redis.eval(
        `local r = redis.call('HMGET', KEYS[1], 'body', 'state', 'decidedAt', 'decidedBy') if not r[1] then return nil end return r`,
        [p + id],
        [],
      )) as Row | null;
      return row ? record(row) : undefined;
    },
    async pending(nowMs) {
      return ((await redis.eval(PENDING, [pendingKey], [nowMs, p])) as Row[]).map(record);
    },
    async transition(id, from, to, decided) {
      const out = (await redis.eval(
        TRANSITION,
        [p + id, pendingKey],
        [to, decided?.atMs ?? '', id, ownerKey, decided?.by ?? '', ...from],
      )) as [number, string, string, string | null, string | null] | null;
      if (!out) return undefined;
      return { changed: out[0] === 1, record: record([out[1], out[2], out[3], out[4]]) };
    },
  };
}
