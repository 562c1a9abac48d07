// `dbops-mcp doctor`: the configuration checked end to end, each failure with its fix.
const help =
  'Usage: dbops-mcp doctor [--json] [settings]\nChecks settings, URL and TLS, the digest challenge, the key and its roles, the server version, the clock, the state directory, Redis when set, and the HTTP port with --transport http. Exit 0 when all pass, 1 otherwise.\n';

export async function runDoctorCli(args: string[]): Promise<number> {
  const { runDoctor, formatChecks } = await import('../../doctor/index.js');
  if (args.includes('--help') || args.includes('-h')) {
    process.stderr.write(help);
    return 0;
  }
  const checks = await runDoctor(args.filter((a) => a !== '--json'));
  process.stdout.write(
    args.includes('--json')
      ? `${JSON.stringify({ ok: checks.every((c) => c.ok), checks }, null, 2)}\n`
      : `${formatChecks(checks)}\n`,
  );
  return checks.every((c) => c.ok) ? 0 : 1;
}
