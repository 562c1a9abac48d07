export async function runServe(_args: string[]): Promise<number> {
  process.stderr.write('dbops-mcp serve: being built\n');
  return 1;
}
export const runTools = runServe;
export const runCall = runServe;
