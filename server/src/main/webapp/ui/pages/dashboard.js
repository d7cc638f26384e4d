import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put} from '../api.js';
import {visualization} from '../viz.js';

// Dashboards lay cards on Metabase's 24-column grid; the CSS keeps that grid on wide screens and stacks cards on phones.
function layoutOf(dc) {
  return {id: dc.id, card_id: dc.card_id, row: dc.row, col: dc.col, size_x: dc.size_x, size_y: dc.size_y,
    dashboard_tab_id: dc.dashboard_tab_id ?? null, parameter_mappings: dc.parameter_mappings || [],
    visualization_settings: dc.visualization_settings || {}, series: (dc.series || []).map((s) => ({id: s.id}))};
}

async function addCard(dashboardId, dashcards, cardId) {
  const bottom = dashcards.reduce((max, dc) => Math.max(max, dc.row + dc.size_y), 0);
  return put('dashboard/' + dashboardId, {dashcards: [...dashcards.map(layoutOf),
    {id: -1, card_id: cardId, row: bottom, col: 0, size_x: 12, size_y: 6, parameter_mappings: [], visualization_settings: {}}]});
}

async function savedQuestions() {
  return (await get('card?f=all')).filter((c) => !c.archived);
}

function templateTagsOf(card) {
  const query = card && card.dataset_query;
  const native = query && (query.native || (query.stages && query.stages[0]));
  return Object.values((native && native['template-tags']) || {}).filter((t) => t.type !== 'card' && t.type !== 'snippet');
}

function slugOf(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'filter';
}

export async function dashboardPage(main, {args, app, params}) {
  const id = Number(args[0]);
  const dashboard = await get('dashboard/' + id);
  const grid = h('div', {class: 'dashboard-grid'});
  const tools = h('div', {class: 'actions'});
  const shareBox = h('div', {'aria-live': 'polite'});
  const editBox = h('div', {});
  const filters = dashboard.parameters || [];
  const values = new Map(filters.map((p) => [p.id, params.get(p.slug) ?? '']));
  const filterBar = filters.length ? h('form', {class: 'filters card', 'aria-label': 'Filters', onsubmit: (e) => {
    e.preventDefault();
    const query = new URLSearchParams();
    for (const p of filters) if (values.get(p.id)) query.set(p.slug, values.get(p.id));
    history.replaceState(null, '', location.pathname + (query.toString() ? '?' + query : ''));
    runAll();
  }}, filters.map((p) => {
    const input = h('input', {name: 'filter-' + p.slug, value: values.get(p.id), oninput: () => values.set(p.id, input.value)});
    return field(p.name, input);
  }), h('button', {type: 'submit'}, 'Apply')) : null;
  mount(main,
    h('div', {class: 'dash-head'}, h('h1', {}, dashboard.name), tools),
    dashboard.description ? h('p', {class: 'muted'}, dashboard.description) : null,
    shareBox, editBox, filterBar, grid);
  if (dashboard.can_write !== false) {
    const questions = await savedQuestions().catch(() => []);
    const pick = h('select', {name: 'add-card'}, questions.map((c) => h('option', {value: c.id}, c.name)));
    if (questions.length) {
      mount(tools, h('form', {class: 'inline', onsubmit: async (e) => {
        e.preventDefault();
        try {
          await addCard(id, dashboard.dashcards, Number(pick.value));
          app.navigate('dashboard/' + id, {replace: true});
        } catch (err) {
          mount(shareBox, errorBox(err.message));
        }
      }}, field('Add a saved question', pick), h('button', {type: 'submit'}, 'Add')));
    }
    if (dashboard.dashcards.some((dc) => templateTagsOf(dc.card).length)) {
      tools.append(h('button', {type: 'button', onclick: () => showAddFilter()}, 'Add a filter'));
    }
  }

  // A text filter wired to one template tag of each card that has them (or to none of a card, if so chosen).
  function showAddFilter() {
    const name = h('input', {name: 'filter-name', required: true});
    const wiring = dashboard.dashcards.filter((dc) => templateTagsOf(dc.card).length).map((dc) => {
      const select = h('select', {name: 'wire-' + dc.id}, h('option', {value: ''}, '(not connected)'),
        templateTagsOf(dc.card).map((t, i) => h('option', {value: t.name, selected: i === 0}, t['display-name'] || t.name)));
      return [dc, select];
    });
    const message = h('div', {'aria-live': 'polite'});
    mount(editBox, h('form', {class: 'card', onsubmit: async (e) => {
      e.preventDefault();
      const parameter = {id: (crypto.randomUUID ? crypto.randomUUID() : String(Date.now())).slice(0, 8), name: name.value,
        slug: slugOf(name.value), type: 'category', sectionId: 'string'};
      const dashcards = dashboard.dashcards.map((dc) => {
        const layout = layoutOf(dc);
        const wire = wiring.find(([w]) => w.id === dc.id);
        if (wire && wire[1].value) {
          layout.parameter_mappings = [...layout.parameter_mappings,
            {parameter_id: parameter.id, card_id: dc.card_id, target: ['variable', ['template-tag', wire[1].value]]}];
        }
        return layout;
      });
      try {
        await put('dashboard/' + id, {parameters: [...filters, parameter], dashcards});
        app.navigate('dashboard/' + id, {replace: true});
      } catch (err) {
        mount(message, errorBox(err.message));
      }
    }}, h('h2', {}, 'Add a filter'), field('Filter name', name),
    wiring.map(([dc, select]) => field(`On “${dc.card.name}”, filter`, select)),
    message, h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save the filter'),
      h('button', {type: 'button', onclick: () => mount(editBox)}, 'Cancel'))));
    name.focus();
  }

  function runAll() {
    if (!dashboard.dashcards.length) {
      mount(grid, h('p', {class: 'muted'}, 'This dashboard is empty: add a saved question to it.'));
      return;
    }
    const parameters = filters.filter((p) => values.get(p.id)).map((p) => ({id: p.id, type: p.type, value: values.get(p.id)}));
    mount(grid, ...dashboard.dashcards.map((dc) => dashcardBox(dc,
      () => post(`dashboard/${id}/dashcard/${dc.id}/card/${dc.card_id}/query`, {parameters}),
      dc.card ? h('a', {href: 'question/' + dc.card_id}, dc.card.name) : null)));
  }
  runAll();
}

export function dashcardBox(dc, query, title) {
  const body = h('div', {class: 'dashcard-body'}, h('p', {class: 'muted'}, 'Loading…'));
  const box = h('section', {class: 'dashcard', style: `--col:${dc.col + 1};--row:${dc.row + 1};--w:${dc.size_x};--h:${dc.size_y}`,
    'aria-label': dc.card ? dc.card.name : 'Card'},
    h('h2', {}, title || (dc.card ? dc.card.name : (dc.visualization_settings && dc.visualization_settings.text) || '')), body);
  if (dc.card_id) {
    query().then((result) => { box.dataset.rows = result.row_count; mount(body, visualization(result.data, dc.card.display || 'table')); })
      .catch((e) => mount(body, errorBox(e.message)));
  } else {
    mount(body, h('p', {}, (dc.visualization_settings && dc.visualization_settings.text) || ''));
  }
  return box;
}

export async function newDashboardPage(main, {app, params}) {
  const [collections, questions] = await Promise.all([get('collection'), savedQuestions()]);
  const name = h('input', {name: 'dashboard-name', required: true});
  const description = h('input', {name: 'dashboard-description'});
  const collection = h('select', {name: 'collection'}, collections.filter((c) => !c.archived && (c.personal_owner_id == null || c.personal_owner_id === app.user.id))
    .map((c) => h('option', {value: c.id}, c.id === 'root' ? (c.name || 'Our analytics') : c.name)));
  const wanted = params.get('card');
  const card = h('select', {name: 'card'}, h('option', {value: ''}, '(none)'),
    questions.map((c) => h('option', {value: c.id, selected: String(c.id) === wanted}, c.name)));
  const status = h('div', {'aria-live': 'polite'});
  mount(main, h('form', {class: 'card narrow', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const dashboard = await post('dashboard', {name: name.value, description: description.value || null,
        collection_id: collection.value === 'root' ? null : Number(collection.value)});
      if (card.value) await addCard(dashboard.id, [], Number(card.value));
      app.navigate('dashboard/' + dashboard.id, {replace: true});
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }},
  h('h1', {}, 'New dashboard'),
  field('Name', name), field('Description', description), field('Collection', collection),
  field('First question on it', card),
  status,
  h('button', {type: 'submit', class: 'primary'}, 'Create')));
  name.focus();
}
