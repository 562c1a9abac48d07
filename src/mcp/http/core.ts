// The HTTP transport's parts, built once at start (sessions, the two protocol eras, the replicas' signer) and
// where it listens: what each request's handlers are handed.
import type { Eras } from './eras.js';
import type { HttpOptions } from './options.js';
import type { ReplicaSigner } from './replicas.js';
import type { Sessions } from './sessions.js';

export interface HttpCore {
  opts: HttpOptions;
  sessions: Sessions;
  eras: Eras;
  /** Present with a forwardKey: replicas pass 2025 sessions' requests on to each other. */
  relay?: ReplicaSigner;
  /** Where this server listens, known once it does. */
  at: {
    port: number;
    /** The origin people reach this server at (DBOPS_PUBLIC_URL, else ownOrigin). */
    selfOrigin: string;
    /** This replica's own address, for the others to pass a session's requests on to. */
    ownOrigin: string;
  };
}
