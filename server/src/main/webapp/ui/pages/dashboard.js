import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put, del} from '../api.js';
import {visualization} from '../viz.js';
import {renderText} from './dash-text.js';
import {sharingSection, subscriptionSection} from './dash-share.js';

// Dashboards lay cards on Metabase's 24-column grid (rows of 56 px); the CSS keeps that grid on wide screens and
// stacks the cards in reading order on phones. In edit mode cards move and resize with the mouse (drag the title bar,
// drag the corner) or the keyboard (arrows move a focused card, Shift+arrows resize it); Save sends the whole layout
// in one PUT /api/dashboard/:id, with the tabs and the filters.

const COLUMNS = 24;
const ROW_HEIGHT = 56;
const GAP = 10;

export function layoutOf(dc) {
  return {id: dc.id, card_id: dc.card_id ?? null, row: dc.row, col: dc.col, size_x: dc.size_x, size_y: dc.size_y,
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

/** Whether a filter can be wired to the card: it has template tags, or it is a structured question over a table. */
function hasTargets(card) {
  return templateTagsOf(card).length > 0 || sourceTableOf(card) != null;
}

function sourceTableOf(card) {
  const q = card && card.dataset_query;
  if (!q || q.type === 'native') return null;
  const inner = q.query || (q.stages && q.stages[0]) || {};
  return Number.isInteger(inner['source-table']) ? inner['source-table'] : null;
}

/** What a filter can be wired to on a card: its template tags, or the fields of its table (structured questions). */
async function targetsOf(card) {
  const tags = templateTagsOf(card).map((t) => ({label: t['display-name'] || t.name,
    target: t.type === 'dimension' ? ['dimension', ['template-tag', t.name]] : ['variable', ['template-tag', t.name]]}));
  const table = sourceTableOf(card);
  if (tags.length || table == null) return tags;
  const metadata = await get(`table/${table}/query_metadata`).catch(() => ({fields: []}));
  return (metadata.fields || []).filter((f) => f.visibility_type !== 'sensitive' && f.visibility_type !== 'retired')
    .map((f) => ({label: f.display_name || f.name, target: ['dimension', ['field', f.id, null]]}));
}

function slugOf(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'filter';
}

const isText = (dc) => !dc.card_id;
const cardName = (dc) => dc.card ? dc.card.name : 'Text';
const readingOrder = (a, b) => a.row - b.row || a.col - b.col;

function place(box, dc) {
  box.style.setProperty('--col', dc.col + 1);
  box.style.setProperty('--row', dc.row + 1);
  box.style.setProperty('--w', dc.size_x);
  box.style.setProperty('--h', dc.size_y);
  box.dataset.col = dc.col;
  box.dataset.row = dc.row;
  box.dataset.sizeX = dc.size_x;
  box.dataset.sizeY = dc.size_y;
}

/** The parameter value as the query endpoints take it. */
function valueFor(p, raw) {
  if (raw == null || raw === '') return null;
  if (String(p.type).startsWith('number')) return [Number(raw)];
  return raw;
}

/**
 * Renders cards into a grid. `query(dc, parameters)` runs one card; `parameters` the current filter values.
 * Returns the card boxes by dashcard id.
 */
export function renderCards(grid, dashcards, query, parameters) {
  const boxes = new Map();
  if (!dashcards.length) {
    mount(grid, h('p', {class: 'muted empty'}, 'Nothing on this dashboard yet.'));
    return boxes;
  }
  mount(grid, [...dashcards].sort(readingOrder).map((dc) => {
    const box = cardBox(dc, query, parameters);
    boxes.set(dc.id, box);
    return box;
  }));
  return boxes;
}

function cardBox(dc, query, parameters, title) {
  const body = h('div', {class: 'dashcard-body'});
  const heading = isText(dc) ? null : h('h2', {class: 'dashcard-title'},
    title !== undefined ? title : (dc.card ? h('a', {href: 'question/' + dc.card_id}, dc.card.name) : 'Question'));
  const box = h('section', {class: 'dashcard' + (isText(dc) ? ' text' : ''), 'aria-label': isText(dc) ? 'Text card' : cardName(dc),
    'data-dashcard': dc.id}, heading, body);
  place(box, dc);
  fill(box, body, dc, query, parameters);
  return box;
}

function fill(box, body, dc, query, parameters) {
  if (isText(dc)) {
    mount(body, renderText((dc.visualization_settings || {}).text));
    return;
  }
  if (!body.firstChild) mount(body, h('p', {class: 'muted'}, 'Loading…'));
  box.removeAttribute('data-rows');
  query(dc, parameters).then((result) => {
    mount(body, visualization(result.data, (dc.card && dc.card.display) || 'table', dc.card && dc.card.visualization_settings));
    box.dataset.rows = result.row_count ?? (result.data && result.data.rows ? result.data.rows.length : 0);
  }).catch((e) => mount(body, errorBox(e.message)));
}

/** Filter inputs that keep their values in the page's query string (?slug=value), so links and reloads keep them. */
function filterForm(parameters, values, onApply, extra) {
  if (!parameters.length) return null;
  return h('form', {class: 'filters card', 'aria-label': 'Filters', onsubmit: (e) => {
    e.preventDefault();
    const query = new URLSearchParams();
    for (const p of parameters) if (values.get(p.id)) query.set(p.slug, values.get(p.id));
    history.replaceState(null, '', location.pathname + (query.toString() ? '?' + query : ''));
    onApply();
  }}, parameters.map((p) => {
    const input = h('input', {name: 'filter-' + p.slug, value: values.get(p.id) || '', type: String(p.type).startsWith('number') ? 'number' : 'text',
      oninput: () => values.set(p.id, input.value)});
    return h('div', {class: 'filter'}, field(p.name, input), extra ? extra(p) : null);
  }), h('button', {type: 'submit'}, 'Apply'));
}

function tabBar(tabs, current, onPick) {
  if (!tabs.length) return null;
  return h('div', {class: 'dash-tabs', role: 'tablist', 'aria-label': 'Tabs'}, tabs.map((t) => h('button', {type: 'button', role: 'tab',
    'aria-selected': String(t.id === current), tabindex: t.id === current ? '0' : '-1', 'data-tab': t.id,
    onclick: () => onPick(t.id),
    onkeydown: (e) => {
      const i = tabs.findIndex((x) => x.id === t.id);
      const next = e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(i - 1 + tabs.length) % tabs.length] : null;
      if (next) { e.preventDefault(); onPick(next.id, true); }
    }}, t.name)));
}

export async function dashboardPage(main, {args, app, params, isCurrent}) {
  const id = Number(args[0]);
  let dashboard = await get('dashboard/' + id);
  const canWrite = dashboard.can_write !== false;
  const s = {editing: false, tab: null, values: new Map(), draft: null, dirty: false, nextId: -1, refresh: 0, timer: null, panel: null};
  for (const p of dashboard.parameters || []) s.values.set(p.id, params.get(p.slug) ?? '');
  const bookmarks = await get('bookmark').catch(() => []);
  let bookmarked = bookmarks.some((b) => b.type === 'dashboard' && b.item_id === id);

  const page = h('div', {class: 'dash-page'});
  const live = h('div', {class: 'sr-only', 'aria-live': 'polite', 'data-announce': ''});
  const panel = h('div', {});
  const grid = h('div', {class: 'dashboard-grid'});
  mount(main, page);

  const model = () => s.editing ? s.draft : {tabs: dashboard.tabs || [], dashcards: dashboard.dashcards, parameters: dashboard.parameters || []};
  const visible = () => {
    const m = model();
    if (!m.tabs.length) return m.dashcards;
    if (!m.tabs.some((t) => t.id === s.tab)) s.tab = m.tabs[0].id;
    return m.dashcards.filter((dc) => dc.dashboard_tab_id === s.tab);
  };
  const currentParameters = () => model().parameters.map((p) => ({id: p.id, type: p.type, value: valueFor(p, s.values.get(p.id))}))
    .filter((p) => p.value != null);
  const run = (dc, parameters) => post(`dashboard/${id}/dashcard/${dc.id}/card/${dc.card_id}/query`, {parameters});
  const announce = (text) => { live.textContent = text; };

  function draw() {
    if (!isCurrent()) return;
    const m = model();
    const head = h('div', {class: 'dash-head'},
      h('div', {}, h('h1', {}, dashboard.name), dashboard.description ? h('p', {class: 'muted'}, dashboard.description) : null),
      s.editing ? editTools() : viewTools());
    mount(page, head, live, panel,
      s.editing ? editBar() : null,
      tabBar(m.tabs, (visible(), s.tab), (tab, focus) => {
        s.tab = tab;
        draw();
        if (focus) page.querySelector(`[data-tab="${tab}"]`).focus();
      }),
      s.editing && m.tabs.length ? tabEditor() : null,
      filterForm(m.parameters, s.values, () => drawCards(), s.editing ? (p) => h('button', {type: 'button', class: 'link',
        'aria-label': 'Remove the filter ' + p.name, onclick: () => removeFilter(p)}, 'Remove') : null),
      grid);
    page.classList.toggle('editing', s.editing);
    drawCards();
  }

  function drawCards() {
    const cards = visible();
    if (!s.editing) {
      const boxes = renderCards(grid, cards, run, currentParameters());
      if (!cards.length) mount(grid, h('p', {class: 'muted empty'}, canWrite ? 'This dashboard is empty: add a saved question to it.' : 'This dashboard is empty.'));
      return boxes;
    }
    mount(grid, cards.length ? [...cards].sort(readingOrder).map(editableBox) : h('p', {class: 'muted empty'}, 'Add a question or a text card.'));
    return null;
  }

  // ---- view mode ----
  function viewTools() {
    const refresh = h('select', {name: 'auto-refresh', onchange: () => setRefresh(Number(refresh.value))},
      [[0, 'Off'], [1, 'Every minute'], [5, 'Every 5 minutes'], [10, 'Every 10 minutes']].map(([v, t]) => h('option', {value: v, selected: v === s.refresh}, t)));
    return h('div', {class: 'actions dash-tools'},
      canWrite ? h('button', {type: 'button', class: 'primary', onclick: startEditing}, 'Edit') : null,
      canWrite && dashboard.dashcards.some((dc) => hasTargets(dc.card)) ? h('button', {type: 'button', onclick: () => showAddFilter()}, 'Add a filter') : null,
      h('button', {type: 'button', 'aria-pressed': String(bookmarked), onclick: toggleBookmark}, bookmarked ? 'Bookmarked' : 'Bookmark'),
      h('button', {type: 'button', onclick: () => togglePanel('share')}, 'Sharing'),
      h('button', {type: 'button', onclick: () => togglePanel('subscriptions')}, 'Subscriptions'),
      h('button', {type: 'button', class: 'fullscreen-toggle', onclick: toggleFullscreen}, page.classList.contains('fullscreen') ? 'Exit fullscreen' : 'Fullscreen'),
      h('div', {class: 'field inline-field'}, h('label', {for: 'auto-refresh'}, 'Auto-refresh'), Object.assign(refresh, {id: 'auto-refresh'})));
  }

  function setRefresh(minutes) {
    s.refresh = minutes;
    clearInterval(s.timer);
    page.dataset.refresh = String(minutes);
    if (!minutes) return;
    s.timer = setInterval(() => {
      if (!document.body.contains(grid)) { clearInterval(s.timer); return; }
      if (!s.editing) drawCards();
    }, minutes * 60_000);
    announce(`The cards refresh every ${minutes === 1 ? 'minute' : minutes + ' minutes'}.`);
  }

  async function toggleFullscreen() {
    const on = !page.classList.contains('fullscreen');
    page.classList.toggle('fullscreen', on);
    try {
      if (on && page.requestFullscreen && !document.fullscreenElement) await page.requestFullscreen();
      else if (!on && document.fullscreenElement) await document.exitFullscreen();
    } catch { /* the class alone still fills the window */ }
    draw();
  }
  page.addEventListener('fullscreenchange', () => {
    if (!document.fullscreenElement && page.classList.contains('fullscreen')) { page.classList.remove('fullscreen'); draw(); }
  });

  async function toggleBookmark() {
    try {
      if (bookmarked) await del('bookmark/dashboard/' + id);
      else await post('bookmark/dashboard/' + id);
      bookmarked = !bookmarked;
      draw();
    } catch (e) {
      mount(panel, errorBox(e.message));
    }
  }

  async function togglePanel(name) {
    if (s.panel === name) { s.panel = null; mount(panel); return; }
    s.panel = name;
    mount(panel, h('p', {class: 'muted'}, 'Loading…'));
    try {
      const filterValue = (p) => valueFor(p, s.values.get(p.id));
      mount(panel, name === 'share' ? await sharingSection('dashboard', dashboard, app) : await subscriptionSection(dashboard, filterValue));
      const first = panel.querySelector('input, select, button');
      if (first) first.focus();
    } catch (e) {
      mount(panel, errorBox(e.message));
    }
  }

  // ---- edit mode ----
  function startEditing() {
    s.draft = {tabs: (dashboard.tabs || []).map((t) => ({id: t.id, name: t.name})),
      dashcards: dashboard.dashcards.map((dc) => ({...layoutOf(dc), card: dc.card})),
      parameters: (dashboard.parameters || []).map((p) => ({...p}))};
    s.editing = true;
    s.panel = null;
    mount(panel);
    draw();
    announce('Editing. Drag a card by its title or use the arrow keys on a focused card; Shift and the arrows resize it.');
  }

  function editTools() {
    return h('div', {class: 'actions dash-tools'},
      h('button', {type: 'button', class: 'primary', onclick: save}, 'Save'),
      h('button', {type: 'button', onclick: () => { s.editing = false; s.draft = null; mount(panel); draw(); }}, 'Cancel'));
  }

  function editBar() {
    const pick = h('select', {name: 'add-card'}, h('option', {value: ''}, 'Loading…'));
    savedQuestions().then((qs) => mount(pick, qs.map((c) => h('option', {value: c.id}, c.name)))).catch(() => mount(pick));
    return h('div', {class: 'card edit-bar'},
      h('form', {class: 'inline', onsubmit: async (e) => {
        e.preventDefault();
        if (!pick.value) return;
        const card = await get('card/' + pick.value);
        addToDraft({card_id: card.id, card, size_x: 12, size_y: 6, visualization_settings: {}});
        announce(`Added “${card.name}”.`);
      }}, field('Add a saved question', pick), h('button', {type: 'submit'}, 'Add')),
      h('button', {type: 'button', onclick: () => {
        addToDraft({card_id: null, size_x: 8, size_y: 3, visualization_settings: {virtual_card: {display: 'text'}, text: ''}});
        const areas = grid.querySelectorAll('textarea');
        if (areas.length) areas[areas.length - 1].focus();
      }}, 'Add a text card'),
      h('button', {type: 'button', onclick: addTab}, 'Add a tab'),
      h('button', {type: 'button', onclick: () => showAddFilter()}, 'Add a filter'));
  }

  function addToDraft(dc) {
    const cards = visible();
    const bottom = cards.reduce((max, c) => Math.max(max, c.row + c.size_y), 0);
    s.draft.dashcards.push({id: s.nextId--, row: bottom, col: 0, parameter_mappings: [], series: [],
      dashboard_tab_id: s.draft.tabs.length ? s.tab : null, ...dc});
    draw();
  }

  function addTab() {
    const tabs = s.draft.tabs;
    if (!tabs.length) {
      const first = {id: s.nextId--, name: 'Tab 1'};
      tabs.push(first);
      for (const dc of s.draft.dashcards) dc.dashboard_tab_id = first.id;
    }
    const tab = {id: s.nextId--, name: 'Tab ' + (tabs.length + 1)};
    tabs.push(tab);
    s.tab = tab.id;
    draw();
    announce(`Added “${tab.name}”.`);
    const name = page.querySelector('input[name=tab-name]');
    if (name) name.focus();
  }

  function tabEditor() {
    const tab = s.draft.tabs.find((t) => t.id === s.tab);
    const name = h('input', {name: 'tab-name', value: tab.name, oninput: () => {
      tab.name = name.value;
      const button = page.querySelector(`[data-tab="${tab.id}"]`);
      if (button) button.textContent = name.value;
    }});
    return h('div', {class: 'inline tab-editor'}, field('Tab name', name),
      h('button', {type: 'button', onclick: () => {
        s.draft.dashcards = s.draft.dashcards.filter((dc) => dc.dashboard_tab_id !== tab.id);
        s.draft.tabs = s.draft.tabs.filter((t) => t.id !== tab.id);
        if (s.draft.tabs.length === 1) { for (const dc of s.draft.dashcards) dc.dashboard_tab_id = null; s.draft.tabs = []; }
        draw();
      }}, 'Remove this tab and its cards'));
  }

  function editableBox(dc) {
    const body = h('div', {class: 'dashcard-body'});
    const title = h('div', {class: 'drag-handle', title: 'Drag to move'}, h('span', {class: 'grip', 'aria-hidden': 'true'}, '⠿'),
      h('span', {}, isText(dc) ? 'Text' : cardName(dc)));
    const remove = h('button', {type: 'button', class: 'remove', 'aria-label': 'Remove ' + (isText(dc) ? 'the text card' : cardName(dc))}, '×');
    const resize = h('div', {class: 'resize-handle', title: 'Drag to resize', 'aria-hidden': 'true'});
    const box = h('section', {class: 'dashcard editable' + (isText(dc) ? ' text' : ''), tabindex: '0', 'data-dashcard': dc.id,
      'aria-label': `${isText(dc) ? 'Text card' : cardName(dc)}. Arrows move it, Shift and arrows resize it.`},
    h('div', {class: 'dashcard-bar'}, title, remove), body, resize);
    place(box, dc);
    if (isText(dc)) {
      const area = h('textarea', {name: 'text-card', rows: 3, 'aria-label': 'Text (# heading, - list, **bold**, *italic*, [link](url))',
        value: dc.visualization_settings.text || '', oninput: () => { dc.visualization_settings = {...dc.visualization_settings, text: area.value}; }});
      area.addEventListener('keydown', (e) => e.stopPropagation());
      mount(body, area);
    } else {
      // a card not saved yet has no dashcard id to run under: run its question
      fill(box, body, dc, dc.id > 0 ? run : (x) => post(`card/${x.card_id}/query`, {}), []);
    }
    remove.addEventListener('click', () => {
      s.draft.dashcards = s.draft.dashcards.filter((x) => x !== dc);
      draw();
      announce('Removed the card.');
    });
    title.addEventListener('pointerdown', (e) => drag(e, dc, box, 'move'));
    resize.addEventListener('pointerdown', (e) => drag(e, dc, box, 'resize'));
    box.addEventListener('keydown', (e) => {
      if (e.target !== box) return;
      const d = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[e.key];
      if (!d) return;
      e.preventDefault();
      if (e.shiftKey) resizeBy(dc, d[0], d[1]);
      else moveTo(dc, dc.col + d[0], dc.row + d[1]);
      place(box, dc);
      settle(dc);
      describeCard(dc);
    });
    return box;
  }

  const minW = (dc) => isText(dc) ? 2 : 3;
  const minH = (dc) => isText(dc) ? 1 : 2;
  function moveTo(dc, col, row) {
    dc.col = Math.max(0, Math.min(COLUMNS - dc.size_x, col));
    dc.row = Math.max(0, row);
  }
  function resizeBy(dc, dx, dy) {
    dc.size_x = Math.max(minW(dc), Math.min(COLUMNS - dc.col, dc.size_x + dx));
    dc.size_y = Math.max(minH(dc), dc.size_y + dy);
  }
  // Like Metabase's grid: what a moved or resized card lands on is pushed down, below it.
  const overlaps = (a, b) => a.col < b.col + b.size_x && b.col < a.col + a.size_x && a.row < b.row + b.size_y && b.row < a.row + a.size_y;
  function settle(moved) {
    const placed = [moved];
    for (const c of [...visible()].sort(readingOrder)) {
      if (c === moved) continue;
      let hit;
      while ((hit = placed.filter((p) => overlaps(p, c))).length) c.row = Math.max(...hit.map((p) => p.row + p.size_y));
      placed.push(c);
    }
    for (const c of placed) {
      const box = grid.querySelector(`[data-dashcard="${c.id}"]`);
      if (box) place(box, c);
    }
  }

  function describeCard(dc) {
    announce(`${isText(dc) ? 'Text card' : cardName(dc)}: column ${dc.col + 1}, row ${dc.row + 1}, ${dc.size_x} wide, ${dc.size_y} high.`);
  }

  function drag(e, dc, box, kind) {
    if (e.button !== 0 || e.target.closest('button')) return;
    e.preventDefault();
    const handle = e.currentTarget;
    const rect = grid.getBoundingClientRect();
    const colStep = (rect.width + GAP) / COLUMNS;
    const rowStep = ROW_HEIGHT + GAP;
    const start = {x: e.clientX, y: e.clientY, col: dc.col, row: dc.row, w: dc.size_x, h: dc.size_y};
    try { handle.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer */ }
    box.classList.add('dragging');
    const move = (ev) => {
      const dx = Math.round((ev.clientX - start.x) / colStep);
      const dy = Math.round((ev.clientY - start.y) / rowStep);
      if (kind === 'move') moveTo(dc, start.col + dx, start.row + dy);
      else {
        dc.size_x = start.w;
        dc.size_y = start.h;
        resizeBy(dc, dx, dy);
      }
      place(box, dc);
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      box.classList.remove('dragging');
      settle(dc);
      describeCard(dc);
      box.focus({preventScroll: true});
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  }

  async function save() {
    const d = s.draft;
    const body = {dashcards: d.dashcards.map(layoutOf), parameters: d.parameters};
    if (d.tabs.length || (dashboard.tabs || []).length) body.tabs = d.tabs.map((t) => ({id: t.id, name: t.name}));
    const tabIndex = d.tabs.findIndex((t) => t.id === s.tab);
    try {
      dashboard = await put('dashboard/' + id, body);
      dashboard.can_write = canWrite;
      s.editing = false;
      s.draft = null;
      if (tabIndex >= 0 && dashboard.tabs && dashboard.tabs[tabIndex]) s.tab = dashboard.tabs[tabIndex].id;
      mount(panel);
      draw();
      announce('Saved.');
      page.dataset.saved = String(Date.now());
    } catch (e) {
      mount(panel, errorBox(e.message));
    }
  }

  // ---- filters ----
  function removeFilter(p) {
    s.draft.parameters = s.draft.parameters.filter((x) => x.id !== p.id);
    for (const dc of s.draft.dashcards) dc.parameter_mappings = (dc.parameter_mappings || []).filter((m) => m.parameter_id !== p.id);
    draw();
  }

  // A filter wired to one target of each card that has some (or to none of a card, if so chosen). In view mode it is
  // saved at once; in edit mode it joins the draft.
  async function showAddFilter() {
    const m = model();
    const name = h('input', {name: 'filter-name', required: true});
    const type = h('select', {name: 'filter-type'}, h('option', {value: 'category'}, 'Text or category'), h('option', {value: 'number/='}, 'Number'));
    const withTargets = m.dashcards.filter((dc) => hasTargets(dc.card));
    const allTargets = await Promise.all(withTargets.map((dc) => targetsOf(dc.card)));
    const wiring = withTargets.map((dc, n) => {
      const targets = allTargets[n];
      const tagged = templateTagsOf(dc.card).length > 0;
      const select = h('select', {name: 'wire-' + dc.id}, h('option', {value: ''}, '(not connected)'),
        targets.map((t, i) => h('option', {value: String(i), selected: tagged && i === 0}, t.label)));
      return [dc, select, targets];
    });
    const message = h('div', {'aria-live': 'polite'});
    mount(panel, h('form', {class: 'card', onsubmit: async (e) => {
      e.preventDefault();
      const parameter = {id: (crypto.randomUUID ? crypto.randomUUID() : String(Date.now())).slice(0, 8), name: name.value,
        slug: slugOf(name.value), type: type.value, sectionId: type.value === 'category' ? 'string' : 'number'};
      const wire = (dc) => {
        const w = wiring.find(([x]) => x.id === dc.id);
        if (!w || w[1].value === '') return dc.parameter_mappings || [];
        return [...(dc.parameter_mappings || []), {parameter_id: parameter.id, card_id: dc.card_id, target: w[2][Number(w[1].value)].target}];
      };
      if (s.editing) {
        s.draft.parameters.push(parameter);
        for (const dc of s.draft.dashcards) dc.parameter_mappings = wire(dc);
        mount(panel);
        draw();
        return;
      }
      try {
        dashboard = await put('dashboard/' + id, {parameters: [...(dashboard.parameters || []), parameter],
          dashcards: dashboard.dashcards.map((dc) => ({...layoutOf(dc), parameter_mappings: wire(dc)}))});
        dashboard.can_write = canWrite;
        s.values.set(parameter.id, '');
        mount(panel);
        draw();
        const input = page.querySelector(`[name="filter-${parameter.slug}"]`);
        if (input) input.focus();
      } catch (err) {
        mount(message, errorBox(err.message));
      }
    }}, h('h2', {}, 'Add a filter'), h('div', {class: 'row'}, field('Filter name', name), field('Filter type', type)),
    wiring.map(([dc, select]) => field(`On “${cardName(dc)}”, filter`, select)),
    message, h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save the filter'),
      h('button', {type: 'button', onclick: () => mount(panel)}, 'Cancel'))));
    name.focus();
  }

  draw();
}

/** A public dashboard (public/dashboard/:uuid): what anyone with the link sees, filters included, without signing in. */
export async function publicDashboardPage(main, {args, params}) {
  const uuid = args[0];
  const dashboard = await get('public/dashboard/' + encodeURIComponent(uuid));
  const values = new Map((dashboard.parameters || []).map((p) => [p.id, params.get(p.slug) ?? '']));
  const tabs = dashboard.tabs || [];
  let tab = tabs.length ? tabs[0].id : null;
  const grid = h('div', {class: 'dashboard-grid'});
  const tabsBox = h('div', {});
  const run = (dc, parameters) => get(`public/dashboard/${encodeURIComponent(uuid)}/dashcard/${dc.id}/card/${dc.card_id}?parameters=`
    + encodeURIComponent(JSON.stringify(parameters)));
  const current = () => (dashboard.parameters || []).map((p) => ({id: p.id, type: p.type, value: valueFor(p, values.get(p.id))})).filter((p) => p.value != null);
  const draw = () => {
    mount(tabsBox, tabBar(tabs, tab, (t) => { tab = t; draw(); }));
    renderCards(grid, tabs.length ? dashboard.dashcards.filter((dc) => dc.dashboard_tab_id === tab) : dashboard.dashcards, run, current());
  };
  mount(main, h('div', {class: 'dash-page public'}, h('div', {class: 'dash-head'}, h('h1', {}, dashboard.name)),
    dashboard.description ? h('p', {class: 'muted'}, dashboard.description) : null,
    tabsBox, filterForm(dashboard.parameters || [], values, draw), grid));
  draw();
}

/**
 * A signed embed (embed/dashboard/:token, the URL of the embed snippet): the token names the dashboard and may lock
 * filters; the others are asked for here and sent as ?slug=value. #titled=false hides the title.
 */
export async function embedDashboardPage(main, {args, params}) {
  const token = encodeURIComponent(args[0]);
  const dashboard = await get('embed/dashboard/' + token);
  const parameters = dashboard.parameters || [];
  const values = new Map(parameters.map((p) => [p.id, params.get(p.slug) ?? '']));
  const tabs = dashboard.tabs || [];
  let tab = tabs.length ? tabs[0].id : null;
  const grid = h('div', {class: 'dashboard-grid'});
  const tabsBox = h('div', {});
  const run = (dc) => {
    const query = new URLSearchParams();
    for (const p of parameters) if (values.get(p.id)) query.set(p.slug, values.get(p.id));
    return get(`embed/dashboard/${token}/dashcard/${dc.id}/card/${dc.card_id}` + (query.toString() ? '?' + query : ''));
  };
  const draw = () => {
    mount(tabsBox, tabBar(tabs, tab, (t) => { tab = t; draw(); }));
    renderCards(grid, tabs.length ? dashboard.dashcards.filter((dc) => dc.dashboard_tab_id === tab) : dashboard.dashcards, run, []);
  };
  const titled = !/titled=false/.test(location.hash);
  document.body.classList.add('embedded');
  mount(main, h('div', {class: 'dash-page embed'}, titled ? h('div', {class: 'dash-head'}, h('h1', {}, dashboard.name)) : null,
    tabsBox, filterForm(parameters, values, draw), grid));
  draw();
}

/** A public question (public/question/:uuid). */
export async function publicQuestionPage(main, {args}) {
  const uuid = encodeURIComponent(args[0]);
  const card = await get('public/card/' + uuid);
  const body = h('div', {class: 'dashcard-body'}, h('p', {class: 'muted'}, 'Loading…'));
  mount(main, h('h1', {}, card.name), card.description ? h('p', {class: 'muted'}, card.description) : null, h('section', {class: 'card'}, body));
  try {
    const result = await get(`public/card/${uuid}/query`);
    mount(body, visualization(result.data, card.display || 'table', card.visualization_settings));
  } catch (e) {
    mount(body, errorBox(e.message));
  }
}

export async function newDashboardPage(main, {app, params}) {
  const [collections, questions] = await Promise.all([get('collection'), savedQuestions()]);
  const name = h('input', {name: 'dashboard-name', required: true});
  const description = h('input', {name: 'dashboard-description'});
  const wantedCollection = params.get('collection');
  const collection = h('select', {name: 'collection'}, collections.filter((c) => !c.archived && (c.personal_owner_id == null || c.personal_owner_id === app.user.id))
    .map((c) => h('option', {value: c.id, selected: String(c.id) === wantedCollection}, c.id === 'root' ? (c.name || 'Our analytics') : c.name)));
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
