#!/usr/bin/env node
// dbops-mcp command line: serve (default) | simulator | tools | call. Each subcommand lives in its own module
// and is loaded lazily so that `serve` does not pay for the simulator's code and vice versa.

const usage = `Usage: dbops-mcp [command] [options]

Commands:
  serve        run the MCP server (default; stdio, or --transport http)
  simulator    run the embedded platform simulator on loopback
  tools        list the tools (--json for machine-readable output)
  call         call one tool through the MCP path: call <tool> [json-args] [--demo] [--yes]
  doctor       check the configuration end to end, each failure with its fix (--json for scripts)
  token        mint a person's token for DBOPS_HTTP_TOKENS_FILE: token <name> (prints the token, then the line)

Run "dbops-mcp <command> --help" for the options of a command; "dbops-mcp --version" prints the version.`;

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  // Not options of `serve`: they answer by themselves.
  const isHelp = first === '--help' || first === '-h' || first === '--version' || first === '-v';
  const command = first === undefined || (first.startsWith('-') && !isHelp) ? 'serve' : first;
  const args = command === first ? rest : argv;
  switch (command) {
    case 'serve':
      return (await import('./mcp/cli.js')).runServe(args);
    case 'simulator':
      return (await import('./simulator/cli.js')).runSimulatorCli(args);
    case 'tools':
      return (await import('./mcp/cli.js')).runTools(args);
    case 'call':
      return (await import('./mcp/cli.js')).runCall(args);
    case 'doctor': {
      const { runDoctor, formatChecks } = await import('./doctor/index.js');
      if (args.includes('--help') || args.includes('-h')) {
        process.stderr.write(
          'Usage: dbops-mcp doctor [--json] [settings]\nChecks settings, URL and TLS, the digest challenge, the key and its roles, the server version, the clock, the state directory, Redis when set, and the HTTP port with --transport http. Exit 0 when all pass, 1 otherwise.\n',
        );
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
    case 'token': {
      const name = args[0];
      if (!name || name.startsWith('-')) {
        process.stderr.write(
          'Usage: dbops-mcp token <name>\nPrints a fresh token for <name> (give it to that person; it is not kept) on stdout, and on stderr the line to add to DBOPS_HTTP_TOKENS_FILE.\n',
        );
        return name ? 0 : 2;
      }
      const { mintNamedToken } = await import('./identity/tokens.js');
      const { token, line } = mintNamedToken(name);
      process.stdout.write(`${token}\n`);
      process.stderr.write(`Add this line to DBOPS_HTTP_TOKENS_FILE:\n${line}\n`);
      return 0;
    }
    case '--version':
    case '-v':
    case 'version':
      process.stdout.write(`${(await import('./version.js')).packageVersion()}\n`);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stderr.write(`${usage}\n`);
      return 0;
    default:
      process.stderr.write(`dbops-mcp: unknown command "${command}"\n\n${usage}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Servers keep running after their command returns; only the exit status is set here.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`dbops-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
