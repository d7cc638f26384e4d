import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put, del} from '../api.js';
import {visualization} from '../viz.js';
import {itemList, hrefOf} from './common.js';

const KIND = {card: 'Question', dataset: 'Model', metric: 'Metric', dashboard: 'Dashboard', collection: 'Collection', table: 'Table',
  database: 'Database', segment: 'Segment', snippet: 'Snippet'};
// The API path of an item that can be pinned, moved or archived.
const PATHS = {card: 'card', dataset: 'card', metric: 'card', dashboard: 'dashboard', collection: 'collection'};
// Bookmarks know cards, dashboards and collections.
const BOOKMARK = {card: 'card', dataset: 'card', metric: 'card', dashboard: 'dashboard', collection: 'collection'};

function bookmarkHref(b) {
  return b.type === 'card' ? 'question/' + b.item_id : b.type === 'dashboard' ? 'dashboard/' + b.item_id : 'collection/' + b.item_id;
}

export async function homePage(main, {app, isCurrent}) {
  const [root, rootItems, personal, bookmarks, recent, databases] = await Promise.all([
    get('collection/root'),
    get('collection/root/items'),
    app.user.personal_collection_id ? get(`collection/${app.user.personal_collection_id}/items`) : Promise.resolve({data: []}),
    get('bookmark').catch(() => []),
    get('activity/recent_views').catch(() => ({recent_views: []})),
    get('database').catch(() => ({data: []})),
  ]);
  if (!isCurrent()) return;
  // what the user opened lately, newest first (the server leaves out what they may no longer read, and archived items)
  const recentItems = (recent.recent_views || []).slice(0, 8);
  const bookmarkList = h('div', {});
  const showBookmarks = (list) => mount(bookmarkList, list.length ? h('ul', {class: 'items'}, list.map((b) => h('li', {},
    h('span', {class: 'icon', 'aria-hidden': 'true'}, '★'), h('a', {href: bookmarkHref(b)}, b.name),
    h('span', {class: 'muted kind'}, b.type === 'card' ? (b.dataset ? 'Model' : 'Question') : KIND[b.type] || b.type),
    h('button', {type: 'button', class: 'link', 'aria-label': 'Remove the bookmark on ' + b.name, onclick: async () => {
      await del(`bookmark/${b.type}/${b.item_id}`);
      showBookmarks(await get('bookmark'));
    }}, 'Remove'))))
    : h('p', {class: 'muted'}, 'Bookmark a dashboard, question or collection to find it here.'));
  showBookmarks(bookmarks);
  const dbs = (databases.data || databases || []).filter((d) => !d.is_audit);
  mount(main,
    h('h1', {}, `Hello, ${app.user.first_name || app.user.common_name || app.user.email}`),
    dbs.length ? askBox(dbs) : null,
    h('div', {class: 'grid2'},
      h('section', {class: 'card', 'aria-labelledby': 'h-root'},
        h('h2', {id: 'h-root'}, h('a', {href: 'collection/root'}, root.name || 'Our analytics')),
        itemList(rootItems.data, 'No questions or dashboards yet: write a SQL query to make one.')),
      h('section', {class: 'card', 'aria-labelledby': 'h-personal'},
        h('h2', {id: 'h-personal'}, app.user.personal_collection_id
          ? h('a', {href: 'collection/' + app.user.personal_collection_id}, 'Your personal collection') : 'Your personal collection'),
        itemList(personal.data, 'Only you can see what you save here.')),
      h('section', {class: 'card', 'aria-labelledby': 'h-bookmarks'}, h('h2', {id: 'h-bookmarks'}, 'Bookmarks'), bookmarkList),
      h('section', {class: 'card', 'aria-labelledby': 'h-recent'}, h('h2', {id: 'h-recent'}, 'Recently viewed'),
        itemList(recentItems, 'Nothing yet.'))),
    h('p', {class: 'actions'},
      h('a', {class: 'button primary', href: 'question/new'}, 'New question'),
      h('a', {class: 'button', href: 'dashboard/new'}, 'New dashboard'),
      h('a', {class: 'button', href: 'browse'}, 'Browse data'),
      h('a', {class: 'button', href: 'trash'}, 'Trash')));
}

// "Ask in plain words": POST /api/assistant/database/:id answers with a question (its SQL), which is then run.
function askBox(databases) {
  const question = h('input', {name: 'ask', type: 'text', placeholder: 'e.g. how many orders per month', required: true});
  const db = h('select', {name: 'ask-database'}, databases.map((d) => h('option', {value: d.id}, d.name)));
  const answer = h('div', {'aria-live': 'polite'});
  const button = h('button', {type: 'submit', class: 'primary'}, 'Ask');
  return h('section', {class: 'card ask', 'aria-labelledby': 'h-ask'}, h('h2', {id: 'h-ask'}, 'Ask in plain words'),
    h('form', {class: 'inline ask-form', onsubmit: async (e) => {
      e.preventDefault();
      button.disabled = true;
      mount(answer, h('p', {class: 'muted'}, 'Thinking…'));
      try {
        const reply = await post(`assistant/database/${db.value}`, {question: question.value});
        const card = reply.card || {};
        const sql = reply['bot-sql'] || (card.dataset_query && card.dataset_query.native && card.dataset_query.native.query) || '';
        const result = await post('dataset', card.dataset_query);
        mount(answer, h('p', {class: 'muted'}, card.name || ''), sql ? h('details', {}, h('summary', {}, 'The SQL'), h('pre', {class: 'snippet'}, sql)) : null,
          h('div', {class: 'ask-result'}, visualization(result.data, card.display || 'table')));
      } catch (err) {
        mount(answer, errorBox(err.message));
      }
      button.disabled = false;
    }}, field('Question', question), field('Database', db), button), answer);
}

/** The collections someone may put things in (for "Move"). */
async function targets(app) {
  const all = await get('collection');
  return all.filter((c) => !c.archived && (c.personal_owner_id == null || c.personal_owner_id === app.user.id)
    && c.can_write !== false && c.namespace == null);
}

export async function collectionPage(main, {args, app}) {
  const id = args[0];
  const [collection, items, bookmarks] = await Promise.all([get('collection/' + id), get(`collection/${id}/items`), get('bookmark').catch(() => [])]);
  const marked = new Set(bookmarks.map((b) => b.type + '-' + b.item_id));
  const canWrite = collection.can_write !== false;
  const status = h('div', {'aria-live': 'polite'});
  const reload = () => app.navigate('collection/' + id, {replace: true});
  const act = async (f, done) => {
    try { await f(); mount(status, h('p', {class: 'ok'}, done)); setTimeout(reload, 0); } catch (e) { mount(status, errorBox(e.message)); }
  };
  let moveTargets = null;

  function row(item) {
    const href = hrefOf(item);
    const path = item.personal_owner_id != null ? null : PATHS[item.model];
    const pinned = item.collection_position != null;
    const bm = BOOKMARK[item.model];
    const isMarked = bm && marked.has(bm + '-' + item.id);
    const moveBox = h('span', {class: 'move-box'});
    return h('li', {'data-item': item.model + '-' + item.id},
      h('span', {class: 'icon', 'aria-hidden': 'true'}, pinned ? '◆' : ({collection: '▣', dashboard: '▤', dataset: '◈'}[item.model] || '▦')),
      href ? h('a', {href}, item.name) : h('span', {}, item.name),
      h('span', {class: 'muted kind'}, KIND[item.model] || item.model),
      h('span', {class: 'item-actions'},
        bm ? h('button', {type: 'button', class: 'link', 'aria-pressed': String(!!isMarked), 'aria-label': (isMarked ? 'Remove the bookmark on ' : 'Bookmark ') + item.name,
          onclick: () => act(() => isMarked ? del(`bookmark/${bm}/${item.id}`) : post(`bookmark/${bm}/${item.id}`), isMarked ? 'Bookmark removed.' : 'Bookmarked.')},
        isMarked ? '★' : '☆') : null,
        canWrite && path && item.model !== 'collection' ? h('button', {type: 'button', class: 'link', 'aria-label': (pinned ? 'Unpin ' : 'Pin ') + item.name,
          onclick: () => act(() => put(`${path}/${item.id}`, {collection_position: pinned ? null : 1}), pinned ? 'Unpinned.' : 'Pinned.')},
        pinned ? 'Unpin' : 'Pin') : null,
        canWrite && path ? h('button', {type: 'button', class: 'link', 'aria-label': 'Move ' + item.name, onclick: async () => {
          moveTargets = moveTargets || await targets(app);
          const select = h('select', {name: 'move-to'}, moveTargets.filter((c) => String(c.id) !== String(id) && !(item.model === 'collection' && c.id === item.id))
            .map((c) => h('option', {value: c.id}, c.id === 'root' ? 'Our analytics' : c.name)));
          mount(moveBox, h('form', {class: 'inline', onsubmit: (e) => {
            e.preventDefault();
            const target = select.value === 'root' ? null : Number(select.value);
            act(() => put(`${path}/${item.id}`, item.model === 'collection' ? {parent_id: target} : {collection_id: target}),
              `Moved ${item.name}.`);
          }}, field('Move to', select), h('button', {type: 'submit'}, 'Move here')));
          select.focus();
        }}, 'Move') : null,
        item.model === 'card' || item.model === 'dataset' || item.model === 'metric' ? h('a', {href: `question/${item.id}/sharing`, 'aria-label': 'Share ' + item.name}, 'Share') : null,
        canWrite && path ? h('button', {type: 'button', class: 'link', 'aria-label': 'Move ' + item.name + ' to the trash',
          onclick: () => act(() => put(`${path}/${item.id}`, {archived: true}), `${item.name} is in the trash.`)}, 'Trash') : null),
      moveBox,
      item.description ? h('span', {class: 'muted desc'}, item.description) : null);
  }

  const pinned = items.data.filter((i) => i.collection_position != null).sort((a, b) => a.collection_position - b.collection_position);
  const rest = items.data.filter((i) => i.collection_position == null);
  const path = (collection.effective_ancestors || []).map((a) => h('span', {}, h('a', {href: 'collection/' + a.id}, a.name), ' / '));
  const newName = h('input', {name: 'collection-name', required: true});
  mount(main,
    h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, path),
    h('div', {class: 'dash-head'}, h('h1', {}, collection.name),
      canWrite ? h('div', {class: 'actions'}, h('a', {class: 'button', href: 'dashboard/new?collection=' + id}, 'New dashboard'),
        h('form', {class: 'inline', onsubmit: (e) => {
          e.preventDefault();
          act(() => post('collection', {name: newName.value, parent_id: id === 'root' ? null : Number(id)}), 'Collection created.');
        }}, field('New collection', newName), h('button', {type: 'submit'}, 'Create'))) : null),
    collection.description ? h('p', {class: 'muted'}, collection.description) : null,
    status,
    pinned.length ? h('section', {class: 'card pinned', 'aria-labelledby': 'h-pinned'}, h('h2', {id: 'h-pinned'}, 'Pinned'),
      h('ul', {class: 'items'}, pinned.map(row))) : null,
    h('section', {class: 'card', 'aria-label': 'Items'}, rest.length ? h('ul', {class: 'items'}, rest.map(row))
      : h('p', {class: 'muted'}, pinned.length ? 'Everything here is pinned.' : 'Nothing here yet.')));
}

const TYPES = [['', 'Everything'], ['dashboard', 'Dashboards'], ['card', 'Questions'], ['dataset', 'Models'], ['metric', 'Metrics'],
  ['collection', 'Collections'], ['table', 'Tables'], ['database', 'Databases']];

export async function searchPage(main, {params, app}) {
  const q = params.get('q') || '';
  const type = params.get('type') || '';
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (type) query.set('models', type);
  const results = q || type ? await get('search?' + query) : {data: []};
  const input = h('input', {type: 'search', name: 'search-q', value: q});
  const go = (t) => {
    const next = new URLSearchParams();
    if (input.value) next.set('q', input.value);
    if (t) next.set('type', t);
    app.navigate('search?' + next);
  };
  const counts = {};
  for (const r of results.data) counts[r.model] = (counts[r.model] || 0) + 1;
  mount(main,
    h('h1', {}, q ? `Results for “${q}”` : 'Search'),
    h('form', {class: 'inline search-form', role: 'search', onsubmit: (e) => { e.preventDefault(); go(type); }},
      field('Search for', input), h('button', {type: 'submit'}, 'Search')),
    h('fieldset', {class: 'segmented type-filter'}, h('legend', {}, 'Type'),
      TYPES.map(([value, label]) => {
        const radio = h('input', {type: 'radio', name: 'type', value, checked: value === type, onchange: () => go(value)});
        return h('label', {class: value === type ? 'on' : null}, radio, label);
      })),
    h('section', {class: 'card', 'aria-label': 'Results'}, itemList(results.data, q || type ? 'Nothing matches.' : 'Type what you are looking for.')));
}

// What was archived directly; restoring puts it back where it was (PUT archived: false, as Metabase's trash does).
export async function trashPage(main, {app}) {
  const trash = await get('collection/trash');
  const items = await get(`collection/${trash.id}/items`);
  const status = h('div', {'aria-live': 'polite'});
  mount(main, h('h1', {}, 'Trash'), status, h('section', {class: 'card'}, items.data.length ? h('ul', {class: 'items'}, items.data.map((item) =>
    h('li', {'data-item': item.model + '-' + item.id}, h('span', {}, item.name), h('span', {class: 'muted kind'}, KIND[item.model] || item.model),
      PATHS[item.model] ? h('button', {type: 'button', class: 'link', onclick: async () => {
        try {
          await put(`${PATHS[item.model]}/${item.id}`, {archived: false});
          app.navigate('trash', {replace: true});
        } catch (e) {
          mount(status, errorBox(e.message));
        }
      }}, 'Restore ' + item.name) : null)))
    : h('p', {class: 'muted'}, 'The trash is empty.')));
}
