// DBOPS_PLATFORMS: the file naming several installations, each with its URL, key and limits.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { bool, ConfigError, configSchema } from './schema.js';

/** One installation of DBOPS_PLATFORMS: where it is, its key, and what this server may do there. */
const platformSpec = z
  .strictObject({
    baseUrl: configSchema.shape.baseUrl.unwrap(),
    publicKey: z.string().min(1),
    privateKey: z.string().min(1).optional(),
    /** Read at start-up, so the key itself need not sit in the file. */
    privateKeyFile: z.string().min(1).optional(),
    projectId: z.string().min(1).optional(),
    orgId: z.string().min(1).optional(),
    readOnly: bool.default(false),
    rateLimit: configSchema.shape.rateLimit.optional(),
    maxConcurrentRequests: configSchema.shape.maxConcurrentRequests.optional(),
    caFile: z.string().min(1).optional(),
    tlsInsecure: bool.optional(),
    dialect: z.enum(['spec', 'field', 'auto']).optional(),
  })
  .refine((p) => (p.privateKey === undefined) !== (p.privateKeyFile === undefined), {
    error: 'give exactly one of privateKey and privateKeyFile',
  });

export type PlatformSpec = Omit<z.output<typeof platformSpec>, 'privateKeyFile'> & {
  name: string;
  privateKey: string;
};

const PLATFORM_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const platformsFile = z.strictObject({
  default: z.string().optional(),
  platforms: z
    .record(z.string(), platformSpec)
    .refine((r) => Object.keys(r).length > 0, { error: 'name at least one platform' }),
});

/**
 * DBOPS_PLATFORMS: `{"default": "prod", "platforms": {"prod": {"baseUrl": …, "publicKey": …, "privateKeyFile": …,
 * "projectId"?, "orgId"?, "readOnly"?, "rateLimit"?, "maxConcurrentRequests"?, "caFile"?, "tlsInsecure"?,
 * "dialect"?}, "staging": {…}}}`. Errors name the file, the platform and the field; never a key.
 */
export function loadPlatforms(file: string): { default: string; platforms: PlatformSpec[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read DBOPS_PLATFORMS ${file}: ${(e as Error).message}`);
  }
  const parsed = platformsFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const [top, name, field] = issue?.path ?? [];
    const where =
      top === 'platforms' && name !== undefined
        ? `platform "${String(name)}"${field !== undefined ? `, ${String(field)}` : ''}`
        : String(top ?? 'the file');
    throw new ConfigError(`DBOPS_PLATFORMS ${file}, ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const names = Object.keys(parsed.data.platforms);
  const misnamed = names.find((n) => !PLATFORM_NAME.test(n));
  if (misnamed !== undefined)
    throw new ConfigError(
      `DBOPS_PLATFORMS ${file}: "${misnamed}" cannot name a platform: use lower-case letters, digits, - and _ (32 at most)`,
    );
  const chosen = parsed.data.default ?? names[0]!;
  if (!names.includes(chosen))
    throw new ConfigError(`DBOPS_PLATFORMS ${file}: default "${chosen}" is not one of ${names.join(', ')}`);
  const platforms = Object.entries(parsed.data.platforms).map(([name, p]) => {
    const { privateKeyFile, ...rest } = p;
    let privateKey = p.privateKey ?? '';
    if (privateKeyFile)
      try {
        privateKey = readFileSync(privateKeyFile, 'utf8').trim();
      } catch (e) {
        throw new ConfigError(
          `DBOPS_PLATFORMS ${file}, platform "${name}": cannot read privateKeyFile: ${(e as Error).message}`,
        );
      }
    return { ...rest, name, privateKey };
  });
  return { default: chosen, platforms };
}
