// The demo people's password hashes at the default seed, worked out once (scrypt, N=1024, 32 bytes, as
// ../values.ts hashPassword) so that a demo start runs no scrypt. Keyed by the first 32 hex digits of
// sha256(password NUL salt) (people.ts passwordHashOf); the value is the hash's hex. A person added or a draw
// moved misses the table and is hashed at start: test/unit/simulator-dataset.test.ts then names who (to add
// them, have passwordHashOf print the key and hash it computes on a miss, once).

export const WORKED_OUT: Readonly<Record<string, string>> = {
  '1dcfc9da4b200dc142a6374949eebaa5': 'b790956d79e5b3ee4376080b3668e62800ddd2fbc8600d24ccccf55ed2835120',
  faa98b2af91d085e9e0fdc020ab93f98: 'a3b53a3a1d46f0b89b23807d292c342705a2a335a3122f757b284922385eaeee',
  '87c1f72fd00b316943dad89110f9f947': 'a37ac20ab219a55db84851c6b72f3c8340c96e7b1b39a560d6304a488eb23bb9',
  '771186b75402e94822c2fd4be0a30057': '70554a3a75da702f1f2dfa344a553b87eb30e5f5feb65ad0f2b75659251aaa68',
  '63e4b55078263a1436a13decabda0dda': 'fbaa00fa24c709d450a1b3da8f07e802a812a1ce818d5167104a95ccc04690d9',
  '51673d07587a2e5a5278b49152430120': 'b563c48b6a6a62428180bb626e7cf18d31b2726fb7de9bb7d7d146bf62da33e6',
  '9f4cd0512a4b1abd256eaff05a38cb06': '7cb91e191b7b5b84077ddf1219f1b656815a8ed9431b579048e0132e5c51b164',
};
