// The consent card for guarded calls: the preview of the change as a card (what is gained and lost, who and
// what is affected, by name) with the link to the approval page. Approval stays with the person, on that page
// or in the client's own dialog: the card has no approve button.
import { consentCard, dataOf, el, idList, isId, obj, startView, str, unId } from './shared.js';

const root = el('main');
document.body.append(root);

startView('consent card', (r, app) => {
  const s = dataOf(r);
  if (r.isError) {
    root.replaceChildren(el('p', 'status', str(r.content?.[0]?.text) || 'The call failed.'));
    return;
  }
  // An unguarded run (the live policy does not ask for this tool) answers with its own result.
  const outcome = str(s.outcome) || 'executed';
  const card = consentCard({ ...s, outcome }, app);
  const result = obj(s.result);
  const record = obj(result.record ?? (s.outcome ? undefined : s.record));
  const shown = Object.entries(record).filter(([, v]) => v === null || typeof v !== 'object');
  if (outcome === 'executed' && shown.length) {
    // Ids go to the card's Ids list; the rest reads as the text answer has it, times in the one form.
    const named = shown.filter(([, v]) => !isId(v)).slice(0, 12);
    const dl = el('dl', 'who');
    for (const [k, v] of named) dl.append(el('dt', '', k), el('dd', '', unId(v)));
    card.append(el('h3', '', 'Now'), dl, idList(shown.filter(([, v]) => isId(v))) ?? '');
  }
  root.replaceChildren(card);
});
