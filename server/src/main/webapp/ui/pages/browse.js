import {h, mount} from '../dom.js';
import {get, post} from '../api.js';
import {resultTable} from '../viz.js';

export async function browsePage(main) {
  const databases = await get('database');
  const list = databases.data || databases;
  mount(main, h('h1', {}, 'Databases'),
    h('section', {class: 'card'}, list.length ? h('ul', {class: 'items'}, list.map((d) => h('li', {},
      h('span', {class: 'icon', 'aria-hidden': 'true'}, '⛁'), h('a', {href: 'browse/' + d.id}, d.name), h('span', {class: 'muted kind'}, d.engine))))
      : h('p', {class: 'muted'}, 'No databases yet. An administrator can add one.')));
}

// A database with one schema lists its tables; with several, its schemas first (as Metabase's browser does).
export async function databasePage(main, {args}) {
  const db = await get(`database/${args[0]}`);
  const schemas = await get(`database/${args[0]}/schemas`);
  const crumbs = h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, h('a', {href: 'browse'}, 'Databases'), ' / ');
  const newQuery = h('p', {}, h('a', {class: 'button', href: 'question/new?db=' + db.id}, 'New SQL query on this database'));
  if (schemas.length > 1) {
    mount(main, crumbs, h('h1', {}, db.name), newQuery,
      h('section', {class: 'card'}, h('h2', {}, 'Schemas'), h('ul', {class: 'items'}, schemas.map((schema) => h('li', {},
        h('span', {class: 'icon', 'aria-hidden': 'true'}, '▤'),
        h('a', {href: `browse/${db.id}/schema/${encodeURIComponent(schema)}`}, schema))))));
    return;
  }
  const tables = schemas.length ? await get(`database/${db.id}/schema/${encodeURIComponent(schemas[0])}`) : [];
  mount(main, crumbs, h('h1', {}, db.name), newQuery, tableList(db, tables));
}

export async function schemaPage(main, {args}) {
  const db = await get(`database/${args[0]}`);
  const schema = args[1];
  const tables = await get(`database/${db.id}/schema/${encodeURIComponent(schema)}`);
  mount(main, h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, h('a', {href: 'browse'}, 'Databases'), ' / ',
      h('a', {href: 'browse/' + db.id}, db.name), ' / '),
    h('h1', {}, schema), tableList(db, tables));
}

function tableList(db, all) {
  const tables = all.filter((t) => t.visibility_type == null).sort((a, b) => a.display_name.localeCompare(b.display_name));
  return h('section', {class: 'card'}, tables.length ? h('ul', {class: 'items'}, tables.map((t) => h('li', {},
      h('span', {class: 'icon', 'aria-hidden': 'true'}, '☷'), h('a', {href: 'table/' + t.id}, t.display_name),
      h('span', {class: 'muted kind'}, t.schema || ''), t.description ? h('span', {class: 'muted desc'}, t.description) : null)))
    : h('p', {class: 'muted'}, db.initial_sync_status === 'complete' ? 'No tables.' : 'The database is still being scanned; come back in a moment.'));
}

export async function tablePage(main, {args}) {
  // GET table/:id records the visit (the home page's recently viewed items); query_metadata has the fields
  const [table] = await Promise.all([get(`table/${args[0]}/query_metadata`), get(`table/${args[0]}`)]);
  const preview = h('div', {'aria-live': 'polite'}, h('p', {class: 'muted'}, 'Loading a preview…'));
  mount(main, h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, h('a', {href: 'browse'}, 'Databases'), ' / ',
      table.db ? h('a', {href: 'browse/' + table.db_id}, table.db.name) : null, ' / '),
    h('h1', {}, table.display_name),
    table.description ? h('p', {class: 'muted'}, table.description) : null,
    h('section', {class: 'card'}, h('h2', {}, 'Fields'),
      h('div', {class: 'table-wrap'}, h('table', {class: 'results'},
        h('thead', {}, h('tr', {}, ['Name', 'Column', 'Type', 'Semantic type'].map((t) => h('th', {scope: 'col'}, t)))),
        h('tbody', {}, (table.fields || []).map((f) => h('tr', {}, h('td', {}, f.display_name), h('td', {}, h('code', {}, f.name)),
          h('td', {}, (f.base_type || '').replace('type/', '')), h('td', {}, (f.semantic_type || '').replace('type/', '')))))))),
    h('section', {class: 'card'}, h('h2', {}, 'Preview'), preview));
  try {
    const result = await post('dataset', {database: table.db_id, type: 'query', query: {'source-table': table.id, limit: 20}});
    mount(preview, resultTable(result.data));
  } catch (e) {
    mount(preview, h('p', {class: 'error'}, e.message));
  }
}
