#!/usr/bin/env node
// dbops-mcp command line: serve (default) | simulator | tools | call | doctor | token. Each command lives in
// its own module (src/mcp/cli/, src/simulator/cli.ts), loaded when it runs.

const usage = `Usage: dbops-mcp [command] [options]

Commands:
  serve        run the MCP server (default; stdio, or --transport http)
  simulator    run the embedded platform simulator on loopback
  tools        list the tools (--json for machine-readable output)
  call         call one tool through the MCP path: call <tool> [json-args] [--demo] [--yes]
  doctor       check the configuration end to end, each failure with its fix (--json for scripts)
  token        mint a person's token for DBOPS_HTTP_TOKENS_FILE: token <name> (prints the token, then the line)

Run "dbops-mcp <command> --help" for the options of a command; "dbops-mcp --version" prints the version.`;

/** Each command, loaded when it runs: `serve` does not pay for the simulator's code and vice versa. */
const commands: Record<string, (args: string[]) => Promise<number>> = {
  serve: async (args) => (await import('./mcp/cli/serve.js')).runServe(args),
  simulator: async (args) => (await import('./simulator/cli.js')).runSimulatorCli(args),
  tools: async (args) => (await import('./mcp/cli/tools.js')).runTools(args),
  call: async (args) => (await import('./mcp/cli/call.js')).runCall(args),
  doctor: async (args) => (await import('./mcp/cli/doctor.js')).runDoctorCli(args),
  token: async (args) => (await import('./mcp/cli/token.js')).runToken(args),
};

async function version(): Promise<number> {
  process.stdout.write(`${(await import('./version.js')).packageVersion()}\n`);
  return 0;
}

async function help(): Promise<number> {
  process.stderr.write(`${usage}\n`);
  return 0;
}

/** The words that stand alone (the version, help), not being an option of `serve`. */
const standalone: Record<string, () => Promise<number>> = {
  '--version': version,
  '-v': version,
  version,
  help,
  '--help': help,
  '-h': help,
};

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const isHelp = first === '--help' || first === '-h' || first === '--version' || first === '-v';
  const command = first === undefined || (first.startsWith('-') && !isHelp) ? 'serve' : first;
  const args = command === first ? rest : argv;
  const run = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (run) return run(args);
  const alone = Object.hasOwn(standalone, command) ? standalone[command] : undefined;
  if (alone) return alone();
  process.stderr.write(`dbops-mcp: unknown command "${command}"\n\n${usage}\n`);
  return 2;
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
