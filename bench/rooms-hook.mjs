// Preloaded by bench/rooms.mjs (`node --import`): V8's precise coverage with call counts from the start; on
// each SIGUSR2 the scripts with a function called since the last signal are written to
// $ROOMS_DIR/rooms-N.json (taking the coverage resets the counts).
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
let n = 0;
process.on('SIGUSR2', () => {
  session.post('Profiler.takePreciseCoverage', (err, { result }) => {
    if (err) throw err;
    const ran = result.filter((s) => s.functions.some((f) => f.ranges[0].count > 0)).map((s) => s.url);
    const file = join(process.env.ROOMS_DIR, `rooms-${n++}.json`);
    writeFileSync(`${file}.part`, JSON.stringify(ran));
    renameSync(`${file}.part`, file); // whole when it appears
  });
});
