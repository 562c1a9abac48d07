// Building API paths from ids that come from a model or a person: every interpolated value is one
// percent-encoded segment, so an id can never add segments, a query or a fragment to the path.

const MAX_SEGMENT = 200;
// C0 and C1 control characters (and DEL): never part of a real id, often a sign of injected text.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function checkSegment(value: unknown, index: number, template: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new Error(
      `Invalid path segment #${index + 1} in ${template}: expected a string id, got ${typeof value}`,
    );
  }
  const s = String(value);
  const problem =
    s.length === 0
      ? 'it is empty'
      : s === '.' || s === '..'
        ? `"${s}" is not an id`
        : s.length > MAX_SEGMENT
          ? `it is ${s.length} characters long (at most ${MAX_SEGMENT})`
          : CONTROL.test(s)
            ? 'it contains control characters'
            : undefined;
  if (problem)
    throw new Error(`Invalid path segment #${index + 1} in ${template}: ${problem} — check the id`);
  return encodeURIComponent(s);
}

/** apiPath`/groups/${projectId}/alerts/${alertId}` → "/groups/<enc>/alerts/<enc>"; throws on unsafe ids. */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  const template = strings.join('{…}');
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += checkSegment(v, i, template) + (strings[i + 1] ?? '');
  });
  return out;
}
