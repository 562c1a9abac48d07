export async function runSimulatorCli(_args: string[]): Promise<number> {
  process.stderr.write('dbops-mcp simulator: being built\n');
  return 1;
}
