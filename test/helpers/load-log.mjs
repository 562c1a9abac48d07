// For `node --import`: appends the URL of every ES module the process loads to the file named by
// LOAD_LOG_FILE (one a line), so a test can tell which chunks of dist/bin/ a start-up loaded.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (process.env.LOAD_LOG_FILE) appendFileSync(process.env.LOAD_LOG_FILE, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
