import {h, mount} from '../dom.js';
import {get, put} from '../api.js';
import {itemList} from './common.js';

export async function homePage(main, {app}) {
  const [root, rootItems, personal] = await Promise.all([
    get('collection/root'),
    get('collection/root/items'),
    app.user.personal_collection_id ? get(`collection/${app.user.personal_collection_id}/items`) : Promise.resolve({data: []}),
  ]);
  mount(main,
    h('h1', {}, `Hello, ${app.user.first_name || app.user.common_name || app.user.email}`),
    h('div', {class: 'grid2'},
      h('section', {class: 'card', 'aria-labelledby': 'h-root'},
        h('h2', {id: 'h-root'}, h('a', {href: 'collection/root'}, root.name || 'Our analytics')),
        itemList(rootItems.data, 'No questions or dashboards yet: write a SQL query to make one.')),
      h('section', {class: 'card', 'aria-labelledby': 'h-personal'},
        h('h2', {id: 'h-personal'}, app.user.personal_collection_id
          ? h('a', {href: 'collection/' + app.user.personal_collection_id}, 'Your personal collection') : 'Your personal collection'),
        itemList(personal.data, 'Only you can see what you save here.'))),
    h('p', {class: 'actions'},
      h('a', {class: 'button primary', href: 'question/new'}, 'New SQL query'),
      h('a', {class: 'button', href: 'dashboard/new'}, 'New dashboard'),
      h('a', {class: 'button', href: 'browse'}, 'Browse data'),
      h('a', {class: 'button', href: 'trash'}, 'Trash')));
}

export async function collectionPage(main, {args}) {
  const id = args[0];
  const [collection, items] = await Promise.all([get('collection/' + id), get(`collection/${id}/items`)]);
  const path = (collection.effective_ancestors || []).map((a) => h('span', {}, h('a', {href: 'collection/' + a.id}, a.name), ' / '));
  mount(main,
    h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, path),
    h('h1', {}, collection.name),
    collection.description ? h('p', {class: 'muted'}, collection.description) : null,
    h('section', {class: 'card'}, itemList(items.data)));
}

export async function searchPage(main, {params}) {
  const q = params.get('q') || '';
  const results = q ? await get('search?q=' + encodeURIComponent(q)) : {data: []};
  mount(main,
    h('h1', {}, q ? `Results for “${q}”` : 'Search'),
    h('section', {class: 'card'}, itemList(results.data, q ? 'Nothing matches.' : 'Type in the search box above.')));
}

// What was archived directly; restoring puts it back where it was (PUT archived: false, as Metabase's trash does).
export async function trashPage(main, {app}) {
  const trash = await get('collection/trash');
  const items = await get(`collection/${trash.id}/items`);
  const paths = {card: 'card', dataset: 'card', metric: 'card', dashboard: 'dashboard', collection: 'collection'};
  mount(main, h('h1', {}, 'Trash'), h('section', {class: 'card'}, items.data.length ? h('ul', {class: 'items'}, items.data.map((item) =>
    h('li', {}, h('span', {}, item.name), h('span', {class: 'muted kind'}, item.model),
      paths[item.model] ? h('button', {type: 'button', class: 'link', onclick: async () => {
        await put(`${paths[item.model]}/${item.id}`, {archived: false});
        app.navigate('trash', {replace: true});
      }}, 'Restore ' + item.name) : null)))
    : h('p', {class: 'muted'}, 'The trash is empty.')));
}
