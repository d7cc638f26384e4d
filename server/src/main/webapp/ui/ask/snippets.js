import {h, mount, field, errorBox} from '../dom.js';
import {get, post} from '../api.js';

// Snippets beside the SQL editor: the list from GET /api/native-query-snippet, each inserted as {{snippet: name}},
// and a small form to create one (POST /api/native-query-snippet).

export function snippetPanel({onInsert, selectedText}) {
  const list = h('ul', {class: 'snippets'});
  const message = h('div', {'aria-live': 'polite'});
  const name = h('input', {name: 'snippet-name', required: true});
  const content = h('textarea', {name: 'snippet-content', class: 'sql', rows: 3, required: true, spellcheck: 'false'});
  const form = h('form', {class: 'snippet-form', hidden: true, onsubmit: async (e) => {
    e.preventDefault();
    try {
      const made = await post('native-query-snippet', {name: name.value.trim(), content: content.value});
      form.hidden = true;
      mount(message, h('p', {class: 'ok'}, `Snippet “${made.name}” saved.`));
      name.value = '';
      content.value = '';
      await load();
    } catch (err) {
      mount(message, errorBox(err.message));
    }
  }}, field('Snippet name', name), field('Snippet SQL', content),
  h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save snippet'),
    h('button', {type: 'button', onclick: () => { form.hidden = true; }}, 'Cancel')));

  async function load() {
    let snippets = [];
    try {
      snippets = await get('native-query-snippet');
    } catch (e) {
      mount(list, h('li', {}, errorBox(e.message)));
      return;
    }
    mount(list, snippets.length ? snippets.filter((s) => !s.archived).map((s) => h('li', {},
      h('button', {type: 'button', class: 'link', title: s.content, 'aria-label': `Insert snippet ${s.name}`,
        onclick: () => onInsert(`{{snippet: ${s.name}}}`)}, s.name),
      s.description ? h('small', {class: 'muted'}, s.description) : null))
      : h('li', {class: 'muted'}, 'No snippets yet.'));
  }

  const panel = h('details', {class: 'snippet-panel', ontoggle: () => { if (panel.open) load(); }},
    h('summary', {}, 'Snippets'), list,
    h('button', {type: 'button', onclick: () => {
      form.hidden = false;
      const selected = selectedText();
      if (selected && !content.value) content.value = selected;
      name.focus();
    }}, 'New snippet'), form, message);
  return panel;
}
