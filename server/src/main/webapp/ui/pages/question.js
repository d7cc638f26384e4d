import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put, download, ApiError, messageOf, withAntiCsrfToken} from '../api.js';
import {sqlEditor} from '../ask/sql-editor.js';
import {snippetPanel} from '../ask/snippets.js';
import {queryBuilder, stateFromQuery} from '../ask/builder.js';
import {askVisualization, defaultDisplay, possibleDisplays, axisPickers, DISPLAY_NAMES} from '../ask/results.js';
import {revisionHistory} from '../ask/revisions.js';

const TAG = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const SNIPPET = /\{\{\s*snippet:\s*([^}]+?)\s*\}\}/gi;
const PARAMETER_TYPES = {text: 'category', number: 'number/=', date: 'date/single', dimension: 'string/='};
const TYPE_NAMES = {text: 'text', number: 'number', date: 'date', dimension: 'field filter'};

/** Template tag names in SQL, in order of first use ({{#123}} card references and {{snippet: x}} are not variables). */
export function templateTagNames(sql) {
  const names = [];
  for (const m of sql.matchAll(TAG)) if (!names.includes(m[1])) names.push(m[1]);
  return names;
}

function slug(name) {
  return name.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

const newId = () => (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));

/** The query a card holds, as 'native' or 'query' (MBQL), from either its legacy or MBQL 5 form. */
function kindOf(datasetQuery) {
  if (!datasetQuery) return 'native';
  if (datasetQuery.type) return datasetQuery.type;
  const stage = (datasetQuery.stages || [])[0] || {};
  return stage['lib/type'] === 'mbql.stage/native' || stage.native ? 'native' : 'query';
}

export async function questionPage(main, {args, params, app, isCurrent}) {
  const cardId = args[0] ? Number(args[0]) : null;
  const [databases, card] = await Promise.all([get('database'), cardId ? get('card/' + cardId) : null]);
  const dbs = (databases.data || databases).filter((d) => !d.is_saved_questions);
  const dq = card ? card.dataset_query : null;
  const stage = dq && dq.stages ? dq.stages[0] || {} : {};
  const native = dq ? (dq.native || (stage.native != null ? {query: stage.native, 'template-tags': stage['template-tags']} : {})) : {};
  const initialDb = card ? dq.database : Number(params.get('db')) || (dbs[0] && dbs[0].id);
  const state = {
    mode: card ? kindOf(dq) : (params.get('mode') === 'builder' ? 'query' : 'native'),
    card, result: null, display: card ? card.display : null, settings: (card && card.visualization_settings) || {},
    running: null, savedQuery: null,
  };
  // tag name → {id, type, value, field}; kept across edits so a tag's type and value survive typing elsewhere
  const tags = new Map(Object.values(native['template-tags'] || {}).filter((t) => t.type !== 'snippet' && t.type !== 'card')
    .map((t) => [t.name, {id: t.id, type: t.type, value: t.default ?? '', field: t.type === 'dimension' ? (refId(t.dimension)) : null}]));
  const snippetIds = new Map();

  if (!dbs.length) {
    mount(main, h('h1', {}, 'New question'), h('p', {}, 'There is no database to query yet.',
      app.user.is_superuser ? h('span', {}, ' ', h('a', {href: 'admin/databases/new'}, 'Add a database'), '.') : ' Ask an administrator to add one.'));
    return;
  }
  const dbSelect = h('select', {name: 'database', onchange: () => { if (state.mode === 'query') builder.load(); }},
    dbs.map((d) => h('option', {value: d.id, selected: d.id === initialDb}, d.name)));
  const databaseId = () => Number(dbSelect.value);
  const editor = sqlEditor({value: native.query || '', describedBy: 'sql-help', databaseId, onInput: syncTags, onRun: () => run()});
  const builder = queryBuilder({databaseId, initial: state.mode === 'query' ? stateFromQuery(dq) : null, onChange: () => {}});
  const paramBox = h('div', {class: 'params', 'aria-live': 'polite'});
  const runButton = h('button', {type: 'button', class: 'primary', onclick: () => run()}, 'Run');
  const cancelButton = h('button', {type: 'button', class: 'danger', hidden: true, onclick: () => cancel()}, 'Cancel query');
  const status = h('div', {class: 'status', 'aria-live': 'polite'});
  const displayBox = h('div', {class: 'display-picker'});
  const output = h('div', {class: 'output'});
  const saveBox = h('div', {});
  const sqlView = h('div', {class: 'sql-view', 'aria-live': 'polite'});
  const modeBox = h('div', {});
  const exportButtons = h('div', {class: 'actions', role: 'group', 'aria-label': 'Download the result'},
    h('button', {type: 'button', onclick: () => exportAs('csv')}, 'Download CSV'),
    h('button', {type: 'button', onclick: () => exportAs('xlsx')}, 'XLSX'),
    h('button', {type: 'button', onclick: () => exportAs('json')}, 'JSON'));
  let fields = null; // the database's fields, for field filters, read once when first needed

  function refId(ref) {
    if (!Array.isArray(ref)) return null;
    return typeof ref[1] === 'number' ? ref[1] : ref[2];
  }

  async function fieldOptions() {
    if (!fields) fields = await get(`database/${databaseId()}/fields`).catch(() => []);
    return fields;
  }

  function syncTags() {
    const names = templateTagNames(editor.value());
    for (const name of names) if (!tags.has(name)) tags.set(name, {id: newId(), type: 'text', value: '', field: null});
    mount(paramBox, names.map((name) => {
      const tag = tags.get(name);
      const input = h('input', {name: 'param-' + name, value: tag.value, type: tag.type === 'number' ? 'number' : tag.type === 'date' ? 'date' : 'text',
        oninput: () => { tag.value = input.value; },
        onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); run(); } }});
      const type = h('select', {name: 'type-' + name, 'aria-label': `Type of ${name}`, onchange: () => { tag.type = type.value; syncTags(); }},
        Object.keys(PARAMETER_TYPES).map((t) => h('option', {value: t, selected: t === tag.type}, TYPE_NAMES[t])));
      let fieldPick = null;
      if (tag.type === 'dimension') {
        fieldPick = h('select', {name: 'field-' + name, 'aria-label': `Column filtered by ${name}`, onchange: () => { tag.field = Number(fieldPick.value) || null; }},
          h('option', {value: ''}, 'Pick a column…'));
        fieldOptions().then((list) => list.forEach((f) => fieldPick.append(h('option', {value: f.id, selected: f.id === tag.field},
          `${f.table_name || ''}${f.table_name ? '.' : ''}${f.display_name || f.name}`))));
      }
      return h('div', {class: 'param'}, field(slug(name), input), type, fieldPick);
    }));
    const snippetNames = [...editor.value().matchAll(SNIPPET)].map((m) => m[1]);
    if (snippetNames.some((n) => !snippetIds.has(n))) {
      get('native-query-snippet').then((list) => list.forEach((s) => snippetIds.set(s.name, s.id))).catch(() => {});
    }
  }

  function templateTags() {
    const out = {};
    for (const name of templateTagNames(editor.value())) {
      const t = tags.get(name);
      out[name] = {id: t.id, name, 'display-name': slug(name), type: t.type};
      if (t.type === 'dimension') Object.assign(out[name], {dimension: ['field', t.field, null], 'widget-type': 'string/='});
    }
    for (const m of editor.value().matchAll(SNIPPET)) {
      const tagName = `snippet: ${m[1]}`;
      out[tagName] = {id: newId(), name: tagName, 'display-name': slug(m[1]), type: 'snippet', 'snippet-name': m[1],
        'snippet-id': snippetIds.get(m[1]) ?? null};
    }
    return out;
  }

  function parameters(withValues) {
    if (state.mode !== 'native') return [];
    return templateTagNames(editor.value()).map((name) => {
      const t = tags.get(name);
      const dimension = t.type === 'dimension';
      const p = {id: t.id, type: PARAMETER_TYPES[t.type], target: [dimension ? 'dimension' : 'variable', ['template-tag', name]], name: slug(name), slug: name};
      if (withValues) p.value = t.type === 'number' && t.value !== '' ? Number(t.value) : dimension && t.value !== '' ? [t.value] : t.value;
      return p;
    }).filter((p) => !withValues || (p.value !== '' && p.value != null));
  }

  function datasetQuery() {
    if (state.mode === 'query') return builder.query();
    return {database: databaseId(), type: 'native', native: {query: editor.value(), 'template-tags': templateTags()}};
  }

  // A saved question whose query is unchanged runs as the card (its permissions and cache); otherwise ad hoc.
  function unchanged() {
    return Boolean(state.card && state.savedQuery && JSON.stringify(stripIds(datasetQuery())) === state.savedQuery);
  }

  function stripIds(query) {
    return JSON.parse(JSON.stringify(query || null, (k, v) => (k === 'id' || k === 'snippet-id' ? undefined : v)));
  }

  function setStatus(kind, ...content) {
    status.dataset.state = kind;
    mount(status, ...content);
  }

  /** POSTs JSON that the person may stop: aborting the fetch closes the request, and the server cancels the query. */
  async function postAbortable(path, body, signal) {
    const response = await fetch('api/' + path, {method: 'POST', credentials: 'same-origin', signal,
      headers: withAntiCsrfToken({'Content-Type': 'application/json'}), body: JSON.stringify(body)});
    const text = await response.text();
    let data = text;
    try { data = text ? JSON.parse(text) : null; } catch { /* plain text */ }
    if (!response.ok || (data && data.status === 'failed')) throw new ApiError(response.status, messageOf(data, response.status), data);
    return data;
  }

  async function run() {
    if (state.running) return;
    const query = datasetQuery();
    if (!query) {
      setStatus('error', errorBox('Pick a table first.'));
      return;
    }
    const controller = new AbortController();
    const started = performance.now();
    const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
    const elapsed = h('span', {class: 'elapsed'}, '0.0 s');
    const ticker = setInterval(() => { elapsed.textContent = seconds() + ' s'; }, 200);
    state.running = {controller, ticker};
    runButton.disabled = true;
    cancelButton.hidden = false;
    setStatus('running', h('p', {class: 'running'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), 'Query is running… ', elapsed));
    try {
      const result = unchanged()
        ? await postAbortable(`card/${state.card.id}/query`, {parameters: parameters(true)}, controller.signal)
        : await postAbortable('dataset', {...query, parameters: parameters(true)}, controller.signal);
      state.result = result;
      if (!state.display || !possibleDisplays(result.data).includes(state.display)) state.display = defaultDisplay(result.data);
      const ms = Math.round(performance.now() - started);
      setStatus('done', h('p', {class: 'muted'}, `${result.row_count} row${result.row_count === 1 ? '' : 's'} in ${ms} ms`));
      showResult();
    } catch (e) {
      state.result = null;
      if (e.name === 'AbortError') setStatus('cancelled', h('p', {class: 'stopped', role: 'alert'}, `Query stopped after ${seconds()} s.`));
      else setStatus('error', errorBox(e.message));
      mount(output);
      mount(displayBox);
    } finally {
      clearInterval(ticker);
      state.running = null;
      runButton.disabled = false;
      cancelButton.hidden = true;
    }
  }

  function cancel() {
    if (state.running) state.running.controller.abort();
  }

  function showResult() {
    const data = state.result.data;
    mount(displayBox, h('fieldset', {class: 'segmented'}, h('legend', {}, 'Show as'),
      possibleDisplays(data).map((d) => h('label', {class: d === state.display ? 'on' : null},
        h('input', {type: 'radio', name: 'display', value: d, checked: d === state.display,
          onchange: () => { state.display = d; showResult(); }}), DISPLAY_NAMES[d]))),
    axisPickers(data, state.display, state.settings, (settings) => { state.settings = settings; showResult(); }),
    exportButtons);
    mount(output, askVisualization(data, state.display, state.settings));
  }

  async function exportAs(format) {
    try {
      const name = state.card ? state.card.name.replace(/[^\w .-]+/g, '_') : 'query_result';
      const query = datasetQuery();
      const size = unchanged()
        ? await download(`card/${state.card.id}/query/${format}`, {parameters: JSON.stringify(parameters(true))}, `${name}.${format}`)
        : await download(`dataset/${format}`, {query: JSON.stringify({...query, parameters: parameters(true)})}, `${name}.${format}`);
      setStatus('exported', h('p', {class: 'ok', 'data-export': 'done'}, `Downloaded the ${format.toUpperCase()} file (${size} bytes).`));
    } catch (e) {
      setStatus('error', errorBox('Download failed: ' + e.message));
    }
  }

  async function viewSql() {
    const query = builder.query();
    if (!query) { mount(sqlView, errorBox('Pick a table first.')); return; }
    try {
      const compiled = await post('dataset/native', {...query, pretty: true});
      mount(sqlView, h('div', {class: 'card'}, h('h2', {}, 'The SQL for this question'),
        h('pre', {class: 'sql-code', tabindex: '0'}, compiled.query),
        h('button', {type: 'button', onclick: () => {
          state.mode = 'native';
          editor.setValue(compiled.query);
          mount(sqlView);
          renderMode();
        }}, 'Convert to SQL')));
    } catch (e) {
      mount(sqlView, errorBox(e.message));
    }
  }

  async function showSave() {
    const collections = (await get('collection')).filter((c) => !c.archived && (c.personal_owner_id == null || c.personal_owner_id === app.user.id));
    const name = h('input', {name: 'card-name', required: true, value: state.card ? state.card.name : ''});
    const description = h('input', {name: 'card-description', value: state.card ? state.card.description || '' : ''});
    const current = state.card ? (state.card.collection_id ?? 'root') : 'root';
    const collection = h('select', {name: 'collection'}, collections.map((c) => h('option', {value: c.id, selected: String(c.id) === String(current)},
      c.id === 'root' ? (c.name || 'Our analytics') : c.name)));
    const kind = h('select', {name: 'card-type'},
      h('option', {value: 'question', selected: !state.card || state.card.type !== 'model'}, 'Question'),
      h('option', {value: 'model', selected: state.card && state.card.type === 'model'}, 'Model'));
    const message = h('div', {'aria-live': 'polite'});
    const asNew = h('input', {type: 'checkbox', name: 'as-new'});
    mount(saveBox, h('form', {class: 'card save', onsubmit: async (e) => {
      e.preventDefault();
      const query = datasetQuery();
      if (!query) { mount(message, errorBox('Pick a table first.')); return; }
      const body = {name: name.value, description: description.value || null, display: state.display || 'table', type: kind.value,
        dataset_query: query, parameters: parameters(false), visualization_settings: state.settings || {},
        collection_id: collection.value === 'root' ? null : Number(collection.value)};
      try {
        const saved = state.card && !asNew.checked ? await put('card/' + state.card.id, body) : await post('card', body);
        state.card = saved;
        mount(saveBox);
        app.navigate('question/' + saved.id, {replace: Boolean(cardId && saved.id === cardId)});
      } catch (err) {
        mount(message, errorBox(err.message));
      }
    }},
    h('h2', {}, state.card ? 'Save changes' : 'Save as a question'),
    h('div', {class: 'row'}, field('Name', name), field('Save as', kind)), field('Description', description), field('Collection', collection),
    state.card ? h('div', {class: 'field check'}, h('label', {}, asNew, ' Save as a new question')) : null,
    message,
    h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save'),
      h('button', {type: 'button', onclick: () => mount(saveBox)}, 'Cancel'))));
    name.focus();
  }

  function renderMode() {
    tabSql.setAttribute('aria-pressed', String(state.mode === 'native'));
    tabBuilder.setAttribute('aria-pressed', String(state.mode === 'query'));
    if (state.mode === 'native') {
      mount(modeBox,
        h('div', {class: 'sql-pane'},
          h('div', {class: 'sql-main'},
            h('label', {for: 'sql-input', class: 'field-label'}, 'SQL'), editor.element,
            h('small', {id: 'sql-help', class: 'muted'}, 'Ctrl+Enter runs the query. Tab takes a suggestion. Write {{name}} for a parameter.')),
          snippetPanel({onInsert: (text) => editor.insert(text),
            selectedText: () => editor.textarea.value.slice(editor.textarea.selectionStart, editor.textarea.selectionEnd)})),
        paramBox);
      editor.textarea.id = 'sql-input';
      syncTags();
    } else {
      mount(modeBox, builder.element, h('div', {class: 'actions'}, h('button', {type: 'button', onclick: viewSql}, 'View the SQL')), sqlView);
    }
  }

  const tabSql = h('button', {type: 'button', class: 'tab', onclick: () => { state.mode = 'native'; renderMode(); }}, 'SQL');
  const tabBuilder = h('button', {type: 'button', class: 'tab', onclick: async () => {
    state.mode = 'query';
    renderMode();
    await builder.load();
  }}, 'Query builder');
  const canWrite = !card || card.can_write !== false;
  const kindLabel = card && card.type === 'model' ? 'Model' : 'Question';

  mount(main,
    h('h1', {}, card ? card.name : 'New question'),
    card ? h('p', {class: 'muted kind-line'}, kindLabel, card.description ? ' · ' + card.description : '') : null,
    h('div', {class: 'card editor ask'},
      h('div', {class: 'ask-head'}, field('Database', dbSelect),
        h('div', {class: 'mode-tabs', role: 'group', 'aria-label': 'How to ask'}, tabBuilder, tabSql)),
      modeBox,
      h('div', {class: 'actions'}, runButton, cancelButton, h('button', {type: 'button', onclick: showSave}, card ? 'Save…' : 'Save as a question…'),
        card ? h('a', {class: 'button', href: 'dashboard/new?card=' + card.id}, 'Add to a new dashboard') : null,
        card ? h('a', {class: 'button', href: 'question/' + card.id + '/sharing'}, 'Sharing and alerts') : null,
        card && canWrite ? h('button', {type: 'button', onclick: async () => {
          try {
            await put('card/' + card.id, {archived: true});
            app.navigate('trash');
          } catch (e) {
            setStatus('error', errorBox(e.message));
          }
        }}, 'Move to trash') : null)),
    saveBox, status, displayBox, output,
    card ? revisionHistory(card.id, {canWrite, onReverted: () => app.navigate('question/' + card.id, {replace: true})}) : null);
  renderMode();
  if (state.mode === 'query') await builder.load();
  if (card) {
    state.savedQuery = JSON.stringify(stripIds(datasetQuery()));
    if (isCurrent()) run();
  } else if (state.mode === 'native') {
    editor.textarea.focus();
  }
}
