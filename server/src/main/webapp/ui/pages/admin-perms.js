import {h, mount, errorBox} from '../dom.js';
import {get, put, ApiError} from '../api.js';
import {adminNav, okBox, ADMINISTRATORS} from './admin.js';

// Permission grids: groups down, databases (or collections) across; each cell a labelled select. Save sends only the
// cells that changed, with the revision the page read; a 409 means someone else saved in between, and says so.

const VIEW = [['unrestricted', 'Can view'], ['legacy-no-self-service', 'No self-service (legacy)'], ['blocked', 'Blocked']];
const CREATE = [['query-builder-and-native', 'Query builder and SQL'], ['query-builder', 'Query builder only'], ['no', 'No']];
const COLLECTION = [['write', 'Curate'], ['read', 'View'], ['none', 'No access']];

function permTabs(current) {
  return h('nav', {class: 'tabs subtabs', 'aria-label': 'Permissions'},
    [['admin/permissions', 'Data'], ['admin/permissions/collections', 'Collections']].map(([href, label]) =>
      h('a', {href, 'aria-current': href === current ? 'page' : null}, label)));
}

function select(name, label, options, value, onchange) {
  return h('select', {name, 'aria-label': label, onchange},
    options.filter(([v]) => v !== 'legacy-no-self-service' || value === v).map(([v, text]) => h('option', {value: v, selected: v === value}, text)));
}

function conflictBox(reload) {
  return h('div', {class: 'error conflict', role: 'alert'},
    h('strong', {}, 'Not saved: someone else changed these permissions since you opened this page. '),
    'Reload to see their changes, then make yours again. ',
    h('button', {type: 'button', onclick: reload}, 'Reload'));
}

async function saveGraph(status, path, body, reload) {
  try {
    await put(path, body);
    await reload(okBox('Permissions saved.'));
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) mount(status, conflictBox(() => reload()));
    else mount(status, errorBox(err.message));
  }
}

export async function adminDataPermissionsPage(main, ctx) {
  const [graph, groups, databases] = await Promise.all([get('permissions/graph'), get('permissions/group'),
    get('database')]);
  const dbs = (databases.data || databases).filter((d) => !d.is_saved_questions);
  const status = h('div', {'aria-live': 'polite'});
  const changed = {};
  const reload = async (message) => { await adminDataPermissionsPage(main, ctx); if (message) mount(main.querySelector('[data-status]'), message); };
  const saveButton = h('button', {type: 'button', class: 'primary', disabled: true, onclick: () => saveGraph(status, 'permissions/graph',
    {revision: graph.revision, groups: changed}, reload)}, 'Save changes');
  const cell = (g, d) => {
    const current = ((graph.groups[g.id] || {})[d.id]) || {};
    const view = current['view-data'] || 'blocked';
    const create = current['create-queries'] || 'no';
    const label = `${g.name} on ${d.name}`;
    const fixed = g.id === ADMINISTRATORS;
    const viewSel = select(`view-${g.id}-${d.id}`, 'View data: ' + label, VIEW, view, () => note());
    const createSel = select(`create-${g.id}-${d.id}`, 'Create queries: ' + label, CREATE, create, () => note());
    viewSel.disabled = createSel.disabled = fixed;
    function note() {
      if (viewSel.value === 'blocked') createSel.value = 'no';
      (changed[g.id] ||= {})[d.id] = {'view-data': viewSel.value, 'create-queries': createSel.value};
      td.classList.add('changed');
      saveButton.disabled = false;
      mount(status, h('p', {class: 'muted'}, 'Unsaved changes.'));
    }
    const td = h('td', {class: 'perm'}, h('div', {class: 'pair'}, h('small', {'aria-hidden': 'true'}, 'View data'), viewSel),
      h('div', {class: 'pair'}, h('small', {'aria-hidden': 'true'}, 'Create queries'), createSel));
    return td;
  };
  mount(main, adminNav('admin/permissions'), h('h1', {}, 'Data permissions'), permTabs('admin/permissions'),
    h('p', {class: 'muted'}, 'A person gets the most generous access of all their groups. Administrators always have full access.'),
    dbs.length ? h('div', {class: 'table-wrap perm-grid'}, h('table', {class: 'results grid'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Group'), dbs.map((d) => h('th', {scope: 'col'}, d.name)))),
      h('tbody', {}, groups.map((g) => h('tr', {'data-group': g.name}, h('th', {scope: 'row'}, g.name), dbs.map((d) => cell(g, d)))))))
      : h('p', {class: 'muted'}, 'No databases yet.'),
    h('div', {class: 'actions save-bar'}, saveButton, h('span', {'data-status': ''}, status),
      h('small', {class: 'muted'}, `Revision ${graph.revision}`)));
}

export async function adminCollectionPermissionsPage(main, ctx) {
  const [graph, groups, collections] = await Promise.all([get('collection/graph'), get('permissions/group'), get('collection')]);
  const names = Object.fromEntries((collections.data || collections).map((c) => [String(c.id), c.name]));
  names.root = 'Our analytics';
  const columns = [...new Set(Object.values(graph.groups).flatMap((perms) => Object.keys(perms)))]
    .filter((id) => names[id] !== undefined)
    .sort((a, b) => (a === 'root' ? -1 : b === 'root' ? 1 : Number(a) - Number(b)));
  if (!columns.includes('root')) columns.unshift('root');
  const status = h('div', {'aria-live': 'polite'});
  const changed = {};
  const reload = async (message) => { await adminCollectionPermissionsPage(main, ctx); if (message) mount(main.querySelector('[data-status]'), message); };
  const saveButton = h('button', {type: 'button', class: 'primary', disabled: true, onclick: () => saveGraph(status, 'collection/graph',
    {revision: graph.revision, groups: changed}, reload)}, 'Save changes');
  const cell = (g, c) => {
    const value = (graph.groups[g.id] || {})[c] || 'none';
    const sel = select(`coll-${g.id}-${c}`, `${g.name} on ${names[c]}`, COLLECTION, value, () => {
      (changed[g.id] ||= {})[c] = sel.value;
      td.classList.add('changed');
      saveButton.disabled = false;
      mount(status, h('p', {class: 'muted'}, 'Unsaved changes.'));
    });
    sel.disabled = g.id === ADMINISTRATORS;
    const td = h('td', {class: 'perm'}, sel);
    return td;
  };
  mount(main, adminNav('admin/permissions'), h('h1', {}, 'Collection permissions'), permTabs('admin/permissions/collections'),
    h('p', {class: 'muted'}, 'Curate: add, edit and move things. View: see and run them. Personal collections are their owners\' only.'),
    h('div', {class: 'table-wrap perm-grid'}, h('table', {class: 'results grid'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Group'), columns.map((c) => h('th', {scope: 'col'}, names[c])))),
      h('tbody', {}, groups.map((g) => h('tr', {'data-group': g.name}, h('th', {scope: 'row'}, g.name), columns.map((c) => cell(g, c))))))),
    h('div', {class: 'actions save-bar'}, saveButton, h('span', {'data-status': ''}, status),
      h('small', {class: 'muted'}, `Revision ${graph.revision}`)));
}
