import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put, download} from '../api.js';
import {visualization, defaultDisplay, possibleDisplays} from '../viz.js';

const TAG = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const PARAMETER_TYPES = {text: 'category', number: 'number/=', date: 'date/single'};
const DISPLAY_NAMES = {table: 'Table', bar: 'Bar', line: 'Line', pie: 'Pie', scalar: 'Number'};

/** Template tag names in SQL, in order of first use ({{#123}} card references and {{snippet: x}} are not variables). */
export function templateTagNames(sql) {
  const names = [];
  for (const m of sql.matchAll(TAG)) if (!names.includes(m[1])) names.push(m[1]);
  return names;
}

function slug(name) {
  return name.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

export async function questionPage(main, {args, params, app}) {
  const cardId = args[0] ? Number(args[0]) : null;
  const [databases, card] = await Promise.all([get('database'), cardId ? get('card/' + cardId) : null]);
  const dbs = (databases.data || databases).filter((d) => !d.is_saved_questions);
  const native = card ? (card.dataset_query.native || (card.dataset_query.stages && card.dataset_query.stages[0]) || {}) : {};
  const initialDb = card ? card.dataset_query.database : Number(params.get('db')) || (dbs[0] && dbs[0].id);
  // tag name → {id, type, value}; kept across edits so a tag's type and value survive typing elsewhere
  const tags = new Map(Object.values(native['template-tags'] || {}).map((t) => [t.name, {id: t.id, type: t.type === 'dimension' ? 'text' : t.type, value: t.default ?? ''}]));
  const state = {result: null, display: card ? card.display : null, card};

  if (!dbs.length) {
    mount(main, h('h1', {}, 'New SQL query'), h('p', {}, 'There is no database to query yet.',
      app.user.is_superuser ? h('span', {}, ' ', h('a', {href: 'admin/databases/new'}, 'Add a database'), '.') : ' Ask an administrator to add one.'));
    return;
  }
  const dbSelect = h('select', {name: 'database'}, dbs.map((d) => h('option', {value: d.id, selected: d.id === initialDb}, d.name)));
  const editor = h('textarea', {name: 'sql', class: 'sql', rows: 8, spellcheck: 'false', 'aria-describedby': 'sql-help',
    value: native.query || ''});
  const paramBox = h('div', {class: 'params', 'aria-live': 'polite'});
  const runButton = h('button', {type: 'button', class: 'primary', onclick: () => run()}, 'Run');
  const status = h('div', {class: 'status', 'aria-live': 'polite'});
  const displayBox = h('div', {class: 'display-picker'});
  const output = h('div', {class: 'output'});
  const saveBox = h('div', {});
  const exportButtons = h('div', {class: 'actions', role: 'group', 'aria-label': 'Download the result'},
    h('button', {type: 'button', onclick: () => exportAs('csv')}, 'Download CSV'),
    h('button', {type: 'button', onclick: () => exportAs('xlsx')}, 'XLSX'),
    h('button', {type: 'button', onclick: () => exportAs('json')}, 'JSON'));

  function syncTags() {
    const names = templateTagNames(editor.value);
    for (const name of names) if (!tags.has(name)) tags.set(name, {id: crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2), type: 'text', value: ''});
    mount(paramBox, names.map((name) => {
      const tag = tags.get(name);
      const input = h('input', {name: 'param-' + name, value: tag.value, type: tag.type === 'number' ? 'number' : tag.type === 'date' ? 'date' : 'text',
        oninput: () => { tag.value = input.value; },
        onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); run(); } }});
      const type = h('select', {name: 'type-' + name, 'aria-label': `Type of ${name}`, onchange: () => { tag.type = type.value; syncTags(); }},
        Object.keys(PARAMETER_TYPES).map((t) => h('option', {value: t, selected: t === tag.type}, t)));
      return h('div', {class: 'param'}, field(slug(name), input), type);
    }));
  }

  function templateTags() {
    const out = {};
    for (const name of templateTagNames(editor.value)) {
      const t = tags.get(name);
      out[name] = {id: t.id, name, 'display-name': slug(name), type: t.type};
    }
    return out;
  }

  function parameters(withValues) {
    return templateTagNames(editor.value).map((name) => {
      const t = tags.get(name);
      const p = {id: t.id, type: PARAMETER_TYPES[t.type], target: ['variable', ['template-tag', name]], name: slug(name), slug: name};
      if (withValues) p.value = t.type === 'number' && t.value !== '' ? Number(t.value) : t.value;
      return p;
    }).filter((p) => !withValues || (p.value !== '' && p.value != null));
  }

  function datasetQuery() {
    return {database: Number(dbSelect.value), type: 'native', native: {query: editor.value, 'template-tags': templateTags()}};
  }

  // A saved question whose SQL is unchanged runs as the card (its permissions and cache); otherwise ad hoc.
  function unchanged() {
    return state.card && state.card.dataset_query.native && state.card.dataset_query.native.query === editor.value
      && state.card.dataset_query.database === Number(dbSelect.value);
  }

  async function run() {
    runButton.disabled = true;
    mount(status, h('p', {class: 'muted'}, 'Running…'));
    const started = performance.now();
    try {
      const result = unchanged()
        ? await post(`card/${state.card.id}/query`, {parameters: parameters(true)})
        : await post('dataset', {...datasetQuery(), parameters: parameters(true)});
      state.result = result;
      if (!state.display || !possibleDisplays(result.data).includes(state.display)) state.display = defaultDisplay(result.data);
      mount(status, h('p', {class: 'muted'}, `${result.row_count} row${result.row_count === 1 ? '' : 's'} in ${Math.round(performance.now() - started)} ms`));
      showResult();
    } catch (e) {
      state.result = null;
      mount(status, errorBox(e.message));
      mount(output);
      mount(displayBox);
    } finally {
      runButton.disabled = false;
    }
  }

  function showResult() {
    const data = state.result.data;
    mount(displayBox, h('fieldset', {class: 'segmented'}, h('legend', {}, 'Show as'),
      possibleDisplays(data).map((d) => h('label', {class: d === state.display ? 'on' : null},
        h('input', {type: 'radio', name: 'display', value: d, checked: d === state.display,
          onchange: () => { state.display = d; showResult(); }}), DISPLAY_NAMES[d]))),
      exportButtons);
    mount(output, visualization(data, state.display));
  }

  async function exportAs(format) {
    try {
      const size = unchanged()
        ? await download(`card/${state.card.id}/query/${format}`, {parameters: JSON.stringify(parameters(true))}, `${state.card.name}.${format}`)
        : await download(`dataset/${format}`, {query: JSON.stringify({...datasetQuery(), parameters: parameters(true)})}, `query_result.${format}`);
      mount(status, h('p', {class: 'ok', 'data-export': 'done'}, `Downloaded the ${format.toUpperCase()} file (${size} bytes).`));
    } catch (e) {
      mount(status, errorBox('Download failed: ' + e.message));
    }
  }

  async function showSave() {
    const collections = (await get('collection')).filter((c) => !c.archived && (c.personal_owner_id == null || c.personal_owner_id === app.user.id));
    const name = h('input', {name: 'card-name', required: true, value: state.card ? state.card.name : ''});
    const description = h('input', {name: 'card-description', value: state.card ? state.card.description || '' : ''});
    const current = state.card ? (state.card.collection_id ?? 'root') : 'root';
    const collection = h('select', {name: 'collection'}, collections.map((c) => h('option', {value: c.id, selected: String(c.id) === String(current)},
      c.id === 'root' ? (c.name || 'Our analytics') : c.name)));
    const message = h('div', {'aria-live': 'polite'});
    const asNew = h('input', {type: 'checkbox', name: 'as-new'});
    mount(saveBox, h('form', {class: 'card save', onsubmit: async (e) => {
      e.preventDefault();
      const body = {name: name.value, description: description.value || null, display: state.display || 'table',
        dataset_query: datasetQuery(), parameters: parameters(false), visualization_settings: {},
        collection_id: collection.value === 'root' ? null : Number(collection.value)};
      try {
        const saved = state.card && !asNew.checked ? await put('card/' + state.card.id, body) : await post('card', body);
        state.card = saved;
        mount(saveBox);
        app.navigate('question/' + saved.id, {replace: true});
      } catch (err) {
        mount(message, errorBox(err.message));
      }
    }},
    h('h2', {}, state.card ? 'Save changes' : 'Save as a question'),
    field('Name', name), field('Description', description), field('Collection', collection),
    state.card ? h('div', {class: 'field check'}, h('label', {}, asNew, ' Save as a new question')) : null,
    message,
    h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save'),
      h('button', {type: 'button', onclick: () => mount(saveBox)}, 'Cancel'))));
    name.focus();
  }

  editor.addEventListener('input', syncTags);
  editor.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });
  mount(main,
    h('h1', {}, card ? card.name : 'New SQL query'),
    card && card.description ? h('p', {class: 'muted'}, card.description) : null,
    h('div', {class: 'card editor'},
      field('Database', dbSelect),
      field('SQL', editor),
      h('small', {id: 'sql-help', class: 'muted'}, 'Ctrl+Enter runs the query. Write {{name}} for a parameter.'),
      paramBox,
      h('div', {class: 'actions'}, runButton, h('button', {type: 'button', onclick: showSave}, card ? 'Save…' : 'Save as a question…'),
        card ? h('a', {class: 'button', href: 'dashboard/new?card=' + card.id}, 'Add to a new dashboard') : null,
        card && card.can_write !== false ? h('button', {type: 'button', onclick: async () => {
          try {
            await put('card/' + card.id, {archived: true});
            app.navigate('trash');
          } catch (e) {
            mount(status, errorBox(e.message));
          }
        }}, 'Move to trash') : null)),
    saveBox, status, displayBox, output);
  syncTags();
  if (card) run(); else editor.focus();
}
