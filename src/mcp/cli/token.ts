// `dbops-mcp token <name>`: a person's token for DBOPS_HTTP_TOKENS_FILE (the token on stdout, the line on stderr).
export async function runToken(args: string[]): Promise<number> {
  const name = args[0];
  if (!name || name.startsWith('-')) {
    process.stderr.write(
      'Usage: dbops-mcp token <name>\nPrints a fresh token for <name> (give it to that person; it is not kept) on stdout, and on stderr the line to add to DBOPS_HTTP_TOKENS_FILE.\n',
    );
    return name ? 0 : 2;
  }
  const { mintNamedToken } = await import('../../identity/tokens.js');
  const { token, line } = mintNamedToken(name);
  process.stdout.write(`${token}\n`);
  process.stderr.write(`Add this line to DBOPS_HTTP_TOKENS_FILE:\n${line}\n`);
  return 0;
}
