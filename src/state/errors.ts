// Below the ledger and the Redis store alike, so neither imports the other for it.

/** The shared store cannot vouch for single use: the caller must change nothing and say so. */
export class StateError extends Error {
  override name = 'StateError';
}
