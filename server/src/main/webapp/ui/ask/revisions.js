import {h, mount, errorBox} from '../dom.js';
import {get, post} from '../api.js';

// A saved question's history from GET /api/revision?entity=card&id=, newest first, each older one with a
// "Revert" button (POST /api/revision/revert); onReverted() reloads the question.

export function revisionHistory(cardId, {canWrite, onReverted}) {
  const box = h('section', {class: 'card revisions', 'aria-labelledby': 'history-title'},
    h('h2', {id: 'history-title'}, 'History'), h('p', {class: 'muted'}, 'Loading…'));
  async function load() {
    let history;
    try {
      history = await get(`revision?entity=card&id=${cardId}`);
    } catch (e) {
      mount(box, h('h2', {id: 'history-title'}, 'History'), errorBox(e.message));
      return;
    }
    const message = h('div', {'aria-live': 'polite'});
    mount(box, h('h2', {id: 'history-title'}, 'History'), message,
      h('ol', {class: 'history'}, history.map((r, i) => {
        const who = r.user && (r.user.common_name || [r.user.first_name, r.user.last_name].filter(Boolean).join(' '));
        const when = r.timestamp ? new Date(r.timestamp).toLocaleString('en-US', {dateStyle: 'medium', timeStyle: 'short'}) : '';
        return h('li', {'data-revision': r.id},
          h('span', {class: 'what'}, `${who || 'Someone'} ${r.description || ''}`),
          h('span', {class: 'muted when'}, when),
          i > 0 && canWrite ? h('button', {type: 'button', 'aria-label': `Revert to the version from ${when} (${r.description || ''})`,
            onclick: async (e) => {
              e.target.disabled = true;
              try {
                await post('revision/revert', {entity: 'card', id: cardId, revision_id: r.id});
                if (onReverted) await onReverted();
              } catch (err) {
                mount(message, errorBox(err.message));
                e.target.disabled = false;
              }
            }}, 'Revert') : null);
      })));
  }
  load();
  return box;
}
