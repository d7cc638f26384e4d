import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put} from '../api.js';

function adminNav(current) {
  const tabs = [['admin/people', 'People'], ['admin/databases', 'Databases'], ['admin/settings', 'Settings']];
  return h('nav', {class: 'tabs', 'aria-label': 'Admin'}, tabs.map(([href, label]) =>
    h('a', {href, 'aria-current': href === current ? 'page' : null}, label)));
}

function peopleTable(list) {
  return h('div', {class: 'table-wrap'}, h('table', {class: 'results'},
    h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Last sign-in'].map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', {}, list.map((u) => h('tr', {}, h('td', {}, u.common_name || ''), h('td', {}, u.email),
      h('td', {}, u.is_superuser ? 'Admin' : 'User'), h('td', {}, u.last_login ? new Date(u.last_login).toLocaleString() : '—'))))));
}

export async function adminPeoplePage(main, {app}) {
  const users = await get('user');
  const first = h('input', {name: 'first_name', autocomplete: 'off'});
  const last = h('input', {name: 'last_name', autocomplete: 'off'});
  const email = h('input', {name: 'email', type: 'email', required: true, autocomplete: 'off'});
  const status = h('div', {'aria-live': 'polite'});
  const people = h('section', {class: 'card'}, peopleTable(users.data || users));
  const form = h('form', {class: 'card', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const user = await post('user', {first_name: first.value || null, last_name: last.value || null, email: email.value});
      const again = await get('user');
      mount(people, peopleTable(again.data || again));
      form.reset();
      mount(status, h('p', {class: 'ok'}, `${user.email} is invited.`));
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }}, h('h2', {}, 'Invite someone'),
  h('div', {class: 'row'}, field('First name', first), field('Last name', last), field('Email', email)),
  h('small', {class: 'muted'}, app.props['email-configured?'] === false ? 'Email is not set up: share the sign-in details yourself.' : 'They get an email with a link to choose a password.'),
  status, h('button', {type: 'submit', class: 'primary'}, 'Invite'));
  mount(main, adminNav('admin/people'), h('h1', {}, 'People'), people, form);
}

export async function adminDatabasesPage(main) {
  const databases = await get('database');
  const list = (databases.data || databases).filter((d) => !d.is_saved_questions);
  mount(main, adminNav('admin/databases'), h('div', {class: 'dash-head'}, h('h1', {}, 'Databases'),
    h('a', {class: 'button primary', href: 'admin/databases/new'}, 'Add a database')),
  h('section', {class: 'card'}, h('div', {class: 'table-wrap'}, h('table', {class: 'results'},
    h('thead', {}, h('tr', {}, ['Name', 'Engine', 'Sync', ''].map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', {}, list.map((d) => h('tr', {}, h('td', {}, h('a', {href: 'browse/' + d.id}, d.name)), h('td', {}, d.engine),
      h('td', {}, d.initial_sync_status || ''),
      h('td', {}, h('button', {type: 'button', class: 'link', onclick: async (e) => {
        await post(`database/${d.id}/sync_schema`, {});
        e.target.textContent = 'Sync started';
      }}, 'Sync now')))))))));
}

// The form is built from the `engines` setting: each engine's details-fields (name, display-name, type, default, ...).
export async function adminNewDatabasePage(main, {app}) {
  const engines = app.props.engines || {};
  const engine = h('select', {name: 'engine'}, Object.entries(engines).map(([key, e]) => h('option', {value: key}, e['driver-name'] || key)));
  const name = h('input', {name: 'name', required: true});
  const details = h('div', {class: 'details'});
  const status = h('div', {'aria-live': 'polite'});
  let inputs = {};
  function renderDetails() {
    inputs = {};
    const fields = (engines[engine.value] || {})['details-fields'] || [];
    mount(details, fields.filter((f) => f.type !== 'hidden' && !f['visible-if']).map((f) => {
      const type = f.type === 'password' ? 'password' : f.type === 'integer' ? 'number' : 'text';
      const control = f.type === 'boolean'
        ? h('input', {type: 'checkbox', name: f.name, checked: f.default === true})
        : h('input', {type, name: f.name, placeholder: f.placeholder ?? '', value: f.default ?? '', required: f.required === true});
      inputs[f.name] = [f, control];
      return f.type === 'boolean'
        ? h('div', {class: 'field check'}, h('label', {}, control, ' ', f['display-name'] || f.name))
        : field(f['display-name'] || f.name, control, f['helper-text']);
    }));
  }
  engine.addEventListener('change', renderDetails);
  renderDetails();
  mount(main, adminNav('admin/databases'), h('form', {class: 'card narrow', onsubmit: async (e) => {
    e.preventDefault();
    const body = {};
    for (const [key, [f, control]] of Object.entries(inputs)) {
      if (f.type === 'boolean') body[key] = control.checked;
      else if (control.value !== '') body[key] = f.type === 'integer' ? Number(control.value) : control.value;
    }
    mount(status, h('p', {class: 'muted'}, 'Connecting…'));
    try {
      const db = await post('database', {engine: engine.value, name: name.value, details: body});
      app.navigate('browse/' + db.id);
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }}, h('h1', {}, 'Add a database'), field('Database type', engine), field('Display name', name), details, status,
  h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save'),
    h('button', {type: 'button', onclick: async () => {
      try { await post('database/sample_database', {}); app.navigate('admin/databases'); } catch (err) { mount(status, errorBox(err.message)); }
    }}, 'Add the Sample Database instead'))));
}

export async function adminSettingsPage(main, {app}) {
  const settings = await get('setting');
  const value = (key) => { const s = settings.find((x) => x.key === key); return s ? (s.value ?? s.default) : null; };
  const status = h('div', {'aria-live': 'polite'});
  const toggle = (key, label) => {
    const box = h('input', {type: 'checkbox', name: key, checked: value(key) === true || value(key) === 'true', onchange: async () => {
      try {
        await put('setting/' + key, {value: box.checked});
        app.props = await get('session/properties');
        mount(status, h('p', {class: 'ok'}, `${label}: ${box.checked ? 'on' : 'off'}.`));
      } catch (err) {
        box.checked = !box.checked;
        mount(status, errorBox(err.message));
      }
    }});
    return h('div', {class: 'field check'}, h('label', {}, box, ' ', label));
  };
  const siteName = h('input', {name: 'site-name', value: value('site-name') || ''});
  mount(main, adminNav('admin/settings'), h('h1', {}, 'Settings'),
    h('section', {class: 'card narrow'},
      h('form', {onsubmit: async (e) => {
        e.preventDefault();
        try { await put('setting/site-name', {value: siteName.value}); mount(status, h('p', {class: 'ok'}, 'Saved.')); } catch (err) { mount(status, errorBox(err.message)); }
      }}, field('Site name', siteName), h('button', {type: 'submit'}, 'Save')),
      h('h2', {}, 'Sharing'),
      toggle('enable-public-sharing', 'Public sharing (links anyone can open)'),
      toggle('enable-embedding', 'Embedding in other applications'),
      status));
}
