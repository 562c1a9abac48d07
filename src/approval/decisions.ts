// One approval's page and the decision posted on it. Who may see and decide what is the decision point's
// (src/policy/decide.ts), asked again on every request. A browser's decision carries the approval's form
// secret twice — a hidden field and a SameSite=Strict HttpOnly cookie scoped to the approval's path — so only
// a page served to the person's own browser can post it; a script's bearer header needs neither.
import { sameSecret } from '../policy/signer.js';
import { approvalJson, approvalPage, type Looker, messagePage } from './page.js';
import {
  CSRF_COOKIE,
  type Ctx,
  cookies,
  readForm,
  readJson,
  redirect,
  type Seen,
  secure,
} from './request.js';
import type { Approval, DecideResult } from './store.js';

interface Found {
  a: Approval;
  look: Looker;
}

/** The approval the path names, when this viewer may see it; with what the page tells them. */
async function findApproval(c: Ctx, seen: Seen): Promise<Found | undefined> {
  const { decisions } = c.pages;
  const a = await c.approval();
  // Another person's request is "unknown" to a viewer who may not see it: its existence is not theirs either.
  if (!a || !decisions.maySee(a, seen) || (seen.by === 'link' && a.requester?.person !== seen.person))
    return undefined;
  const refusal = decisions.mayDecide(a, seen, 'approve');
  const look = {
    viewer: seen,
    ...(refusal ? { refusal } : {}),
    viewOnly: seen.by === 'link',
    fourEyes: decisions.secondPersonText(decisions.secondPerson(a), seen.name ?? seen.person),
  };
  return { a, look };
}

function unknownApproval(c: Ctx): boolean {
  if (c.wantsJson) return c.json(404, { error: 'not found' });
  return c.send(
    404,
    messagePage('Unknown approval', 'No approval of yours has this address; it may have been removed.', c.o),
  );
}

/** GET /approvals/<id>: the page (with the form secret's cookie while it can be decided), or its JSON. */
export async function showApproval(c: Ctx, seen: Seen): Promise<boolean> {
  const found = await findApproval(c, seen);
  if (!found) return unknownApproval(c);
  const { a, look } = found;
  const { store } = c.pages;
  if (c.wantsJson) return c.json(200, approvalJson(a, seen, c.pages.decisions));
  const cookie = `${CSRF_COOKIE}=${a.secret}; Path=/approvals/${a.id}; HttpOnly; SameSite=Strict; Max-Age=${Math.max(
    1,
    Math.ceil((a.expiresAt.getTime() - store.now().getTime()) / 1000),
  )}${secure(c.req) ? '; Secure' : ''}`;
  return c.send(
    200,
    approvalPage(a, store.now(), c.o, undefined, look),
    a.state === 'pending' && !look.viewOnly ? { 'set-cookie': cookie } : {},
  );
}

/** POST /approvals/<id>: the person's (or their script's) approve or decline. */
export async function decideApproval(c: Ctx, seen: Seen): Promise<boolean> {
  const found = await findApproval(c, seen);
  if (!found) return unknownApproval(c);
  const { a, look } = found;
  const { store, logger } = c.pages;
  if (seen.by === 'link') {
    logger.warn('approval page: a decision by link refused', { approvalId: a.id });
    const why = 'This link shows the request only: sign in as yourself to decide.';
    return c.send(403, approvalPage(a, store.now(), c.o, why, look));
  }
  const asked = await readDecision(c, seen, a);
  if (asked === 'refused') return true;
  const { decision, secret } = asked;
  if (decision !== 'approve' && decision !== 'decline') {
    if (seen.by === 'header')
      return c.json(400, {
        error: 'bad request',
        detail: 'Send {"decision":"approve"} or {"decision":"decline"}.',
      });
    return c.send(400, approvalPage(a, store.now(), c.o, 'Choose Approve or Decline.', look));
  }
  const result = await store.decide(a.id, decision, secret, seen);
  return replyToDecision(c, seen, found, decision, result);
}

/**
 * The decision and the proof that the person's page sent it: a script's JSON needs none (true); a form's
 * hidden secret must equal its cookie ('refused' when it does not, the refusal sent).
 */
async function readDecision(
  c: Ctx,
  seen: Seen,
  a: Approval,
): Promise<{ decision: string | null | undefined; secret: string | true } | 'refused'> {
  if (seen.by === 'header') {
    const body = await readJson(c.req);
    return { decision: typeof body?.decision === 'string' ? body.decision : undefined, secret: true };
  }
  const form = await readForm(c.req);
  const secret = form?.get('csrf') ?? '';
  const cookieSecret = cookies(c.req)[CSRF_COOKIE] ?? '';
  if (form && !sameSecret(cookieSecret, secret)) {
    c.pages.logger.warn('approval page: form secret and cookie differ', { approvalId: a.id });
    c.send(403, messagePage('Refused', 'This request did not come from the approval page.', c.o));
    return 'refused';
  }
  return { decision: form?.get('decision'), secret };
}

/** What the store said to the decision, as JSON for a script and as a page for a browser. */
async function replyToDecision(
  c: Ctx,
  seen: Seen,
  { a, look }: Found,
  decision: 'approve' | 'decline',
  result: DecideResult,
): Promise<boolean> {
  const { store, decisions, logger } = c.pages;
  const script = seen.by === 'header';
  const refused = (detail: string) => c.send(403, messagePage('Refused', detail, c.o));
  const again = (status: number, detail: string) =>
    c.send(status, approvalPage(a, store.now(), c.o, detail, look));
  if (result === 'forbidden' || result === 'unknown' || result === 'not-yours') {
    logger.warn('approval page: decision refused', { approvalId: a.id, result });
    if (script) return c.json(403, { error: 'forbidden', detail: 'You may not decide this request.' });
    return refused('This request did not come from the approval page.');
  }
  if (result === 'four-eyes') {
    const detail = decisions.secondPersonText(decisions.secondPerson(a), seen.name ?? seen.person);
    return script ? c.json(403, { error: 'four_eyes', detail }) : again(403, detail);
  }
  if (result === 'read-only') {
    const detail = `${seen.name ?? seen.person}'s token lacks the write scope (DBOPS_OAUTH_SCOPES): deciding a change needs it; nothing was decided.`;
    return script ? c.json(403, { error: 'read_only', detail }) : refused(detail);
  }
  if (result === 'revoked') {
    const detail = `${seen.name ?? seen.person} may no longer decide (the token or approver role was removed); nothing was decided.`;
    return script ? c.json(403, { error: 'revoked', detail }) : refused(detail);
  }
  const wanted = decision === 'approve' ? 'approved' : 'declined';
  if (result !== wanted) {
    const detail = `This approval was already ${result}; nothing was changed now.`;
    return script ? c.json(409, { error: 'conflict', detail, state: result }) : again(409, detail);
  }
  logger.info('approval decided', {
    approvalId: a.id,
    tool: a.tool,
    decision: result,
    by: seen.name ?? seen.person,
  });
  if (script) return c.json(200, approvalJson((await store.get(a.id)) ?? a, seen, decisions));
  // Post/Redirect/Get: reloading the result page never re-submits the form.
  return redirect(c, `/approvals/${a.id}`);
}
