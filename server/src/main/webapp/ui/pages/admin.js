import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put, del} from '../api.js';

// Admin pages: people, groups, databases. Permissions, API keys and settings are in admin-perms.js / admin-settings.js.
// Every action is one call of the public /api; the pages re-read what they show after a change.

export const ALL_USERS = 1;
export const ADMINISTRATORS = 2;

export function adminNav(current) {
  const tabs = [['admin/people', 'People'], ['admin/groups', 'Groups'], ['admin/permissions', 'Permissions'],
    ['admin/api-keys', 'API keys'], ['admin/databases', 'Databases'], ['admin/settings', 'Settings']];
  return h('nav', {class: 'tabs', 'aria-label': 'Admin'}, tabs.map(([href, label]) =>
    h('a', {href, 'aria-current': href === current ? 'page' : null}, label)));
}

export const okBox = (message) => h('p', {class: 'ok', role: 'status'}, message);

/** A button that asks again in place ("Delete" → "Delete X? [Yes, delete] [Cancel]") before running `action`. */
export function confirmButton(label, question, yes, action) {
  const holder = h('span', {class: 'confirm'});
  const ask = () => {
    const yesButton = h('button', {type: 'button', class: 'danger', onclick: async () => {
      yesButton.disabled = true;
      try { await action(); } finally { yesButton.disabled = false; }
    }}, yes);
    mount(holder, h('span', {class: 'question'}, question, ' '), yesButton, ' ',
      h('button', {type: 'button', onclick: () => { mount(holder, first()); holder.querySelector('button').focus(); }}, 'Cancel'));
    yesButton.focus();
  };
  const first = () => h('button', {type: 'button', class: 'link', onclick: ask}, label);
  return mount(holder, first());
}

/** Runs `work`, then shows its message (or its error) in `status`; answers whether it worked. */
export async function attempt(status, work, okMessage) {
  try {
    const result = await work();
    if (okMessage) mount(status, okBox(typeof okMessage === 'function' ? okMessage(result) : okMessage));
    return true;
  } catch (err) {
    mount(status, errorBox(err.message));
    return false;
  }
}

const listOf = (data) => (Array.isArray(data) ? data : (data && data.data) || []);
const nameOf = (u) => u.common_name || [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email;

// --- people ---------------------------------------------------------------------------------------------------------

export async function adminPeoplePage(main, {app, params}) {
  const showInactive = params.get('status') === 'deactivated';
  const [users, groups] = await Promise.all([get(showInactive ? 'user?status=deactivated' : 'user'), get('permissions/group')]);
  const groupName = Object.fromEntries(groups.map((g) => [g.id, g.name]));
  const status = h('div', {'aria-live': 'polite'});
  const editor = h('div');
  const people = h('section', {class: 'card'});
  const reload = async () => {
    const again = await get(showInactive ? 'user?status=deactivated' : 'user');
    renderTable(listOf(again));
  };

  function editForm(u) {
    const first = h('input', {name: 'edit-first_name', value: u.first_name || ''});
    const last = h('input', {name: 'edit-last_name', value: u.last_name || ''});
    const email = h('input', {name: 'edit-email', type: 'email', required: true, value: u.email});
    const member = new Set(u.group_ids || []);
    const boxes = groups.filter((g) => g.id !== ALL_USERS).map((g) =>
      [g, h('input', {type: 'checkbox', name: 'edit-group-' + g.id, checked: member.has(g.id)})]);
    const form = h('form', {class: 'card', 'aria-label': 'Edit ' + nameOf(u), onsubmit: async (e) => {
      e.preventDefault();
      const chosen = boxes.filter(([, box]) => box.checked).map(([g]) => g.id);
      const ok = await attempt(status, () => put('user/' + u.id, {
        first_name: first.value || null, last_name: last.value || null, email: email.value,
        is_superuser: chosen.includes(ADMINISTRATORS),
        user_group_memberships: [ALL_USERS, ...chosen].map((id) => ({id})),
      }), `Saved ${email.value}.`);
      if (ok) { mount(editor); await reload(); }
    }}, h('h2', {}, 'Edit ' + nameOf(u)),
    h('div', {class: 'row'}, field('First name', first), field('Last name', last), field('Email', email)),
    h('fieldset', {class: 'groups'}, h('legend', {}, 'Groups'),
      boxes.map(([g, box]) => h('label', {}, box, ' ', g.name))),
    h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save changes'),
      h('button', {type: 'button', onclick: () => mount(editor)}, 'Cancel')));
    mount(editor, form);
    first.focus();
  }

  function renderTable(list) {
    mount(people, list.length ? h('div', {class: 'table-wrap'}, h('table', {class: 'results people'},
      h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Groups', 'Last sign-in', 'Actions'].map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', {}, list.map((u) => h('tr', {'data-email': u.email},
        h('td', {}, u.common_name || ''), h('td', {}, u.email),
        h('td', {}, u.is_superuser ? 'Admin' : 'User'),
        h('td', {}, (u.group_ids || []).filter((id) => id !== ALL_USERS).map((id) => groupName[id] || '#' + id).join(', ')),
        h('td', {}, u.last_login ? new Date(u.last_login).toLocaleString() : '—'),
        h('td', {class: 'actions'}, u.is_active === false
          ? h('button', {type: 'button', class: 'link', onclick: async () => {
            if (await attempt(status, () => put(`user/${u.id}/reactivate`, {}), `${u.email} is active again.`)) await reload();
          }}, 'Reactivate')
          : [h('button', {type: 'button', class: 'link', onclick: () => editForm(u)}, 'Edit'),
            u.id === app.user.id ? null : confirmButton('Deactivate', `Deactivate ${u.email}?`, 'Yes, deactivate', async () => {
              if (await attempt(status, () => del('user/' + u.id), `${u.email} is deactivated.`)) await reload();
            })]))))))
      : h('p', {class: 'muted'}, showInactive ? 'Nobody is deactivated.' : 'Nobody yet.'));
  }
  renderTable(listOf(users));

  const first = h('input', {name: 'first_name', autocomplete: 'off'});
  const last = h('input', {name: 'last_name', autocomplete: 'off'});
  const email = h('input', {name: 'email', type: 'email', required: true, autocomplete: 'off'});
  const inviteGroup = h('select', {name: 'invite-group'}, h('option', {value: ''}, 'Only All Users'),
    groups.filter((g) => g.id !== ALL_USERS).map((g) => h('option', {value: g.id}, g.name)));
  const form = h('form', {class: 'card', onsubmit: async (e) => {
    e.preventDefault();
    const memberships = [{id: ALL_USERS}];
    if (inviteGroup.value) memberships.push({id: Number(inviteGroup.value)});
    const ok = await attempt(status, () => post('user', {first_name: first.value || null, last_name: last.value || null,
      email: email.value, user_group_memberships: memberships}), (user) => `${user.email} is invited.`);
    if (ok) { form.reset(); await reload(); }
  }}, h('h2', {}, 'Invite someone'),
  h('div', {class: 'row'}, field('First name', first), field('Last name', last), field('Email', email), field('Group', inviteGroup)),
  h('small', {class: 'muted'}, app.props['email-configured?'] === false ? 'Email is not set up: share the sign-in details yourself.' : 'They get an email with a link to choose a password.'),
  h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Invite')));
  mount(main, adminNav('admin/people'), h('div', {class: 'dash-head'}, h('h1', {}, showInactive ? 'Deactivated people' : 'People'),
    h('a', {href: showInactive ? 'admin/people' : 'admin/people?status=deactivated'}, showInactive ? 'Show active people' : 'Show deactivated people')),
  status, editor, people, showInactive ? null : form);
}

// --- groups ---------------------------------------------------------------------------------------------------------

export async function adminGroupsPage(main) {
  const status = h('div', {'aria-live': 'polite'});
  const list = h('section', {class: 'card'});
  const reload = async () => {
    const groups = await get('permissions/group');
    mount(list, h('div', {class: 'table-wrap'}, h('table', {class: 'results groups'},
      h('thead', {}, h('tr', {}, ['Group', 'Members', 'Actions'].map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', {}, groups.map((g) => groupRow(g))))));
  };
  function groupRow(g) {
    const fixed = g.id === ALL_USERS || g.id === ADMINISTRATORS;
    const row = h('tr', {'data-group': g.name});
    const show = () => mount(row, h('td', {}, h('a', {href: 'admin/groups/' + g.id}, g.name)), h('td', {}, String(g.member_count ?? '')),
      h('td', {class: 'actions'}, fixed ? h('span', {class: 'muted'}, 'Built in') : [
        h('button', {type: 'button', class: 'link', onclick: rename}, 'Rename'), ' ',
        confirmButton('Delete', `Delete the group ${g.name}?`, 'Yes, delete', async () => {
          if (await attempt(status, () => del('permissions/group/' + g.id), `${g.name} is deleted.`)) await reload();
        })]));
    const rename = () => {
      const input = h('input', {name: 'rename-' + g.id, value: g.name, required: true, 'aria-label': 'New name for ' + g.name});
      mount(row, h('td', {colspan: 3}, h('form', {class: 'inline', onsubmit: async (e) => {
        e.preventDefault();
        if (await attempt(status, () => put('permissions/group/' + g.id, {name: input.value}), `Renamed to ${input.value}.`)) await reload();
      }}, input, h('button', {type: 'submit', class: 'primary'}, 'Save'), h('button', {type: 'button', onclick: show}, 'Cancel'))));
      input.focus();
    };
    show();
    return row;
  }
  await reload();
  const name = h('input', {name: 'group-name', required: true, autocomplete: 'off'});
  const form = h('form', {class: 'card inline', onsubmit: async (e) => {
    e.preventDefault();
    if (await attempt(status, () => post('permissions/group', {name: name.value}), (g) => `The group ${g.name} is created.`)) {
      form.reset();
      await reload();
    }
  }}, field('New group', name), h('button', {type: 'submit', class: 'primary'}, 'Create group'));
  mount(main, adminNav('admin/groups'), h('h1', {}, 'Groups'), status, list, form);
}

export async function adminGroupPage(main, {args}) {
  const id = Number(args[0]);
  const status = h('div', {'aria-live': 'polite'});
  const body = h('div');
  const reload = async () => {
    const [group, users] = await Promise.all([get('permissions/group/' + id), get('user')]);
    const members = group.members || [];
    const inGroup = new Set(members.map((m) => m.user_id ?? m.id));
    const candidates = listOf(users).filter((u) => !inGroup.has(u.id));
    const pick = h('select', {name: 'add-member'}, candidates.map((u) => h('option', {value: u.id}, `${nameOf(u)} (${u.email})`)));
    const builtIn = id === ALL_USERS;
    mount(body, h('h1', {}, group.name),
      h('section', {class: 'card'}, members.length ? h('div', {class: 'table-wrap'}, h('table', {class: 'results members'},
        h('thead', {}, h('tr', {}, ['Name', 'Email', 'Group manager', 'Actions'].map((t) => h('th', {scope: 'col'}, t)))),
        h('tbody', {}, members.map((m) => {
          const manager = h('input', {type: 'checkbox', name: 'manager-' + (m.user_id ?? m.id), checked: m.is_group_manager === true,
            'aria-label': 'Group manager: ' + m.email, disabled: builtIn || id === ADMINISTRATORS, onchange: async () => {
              if (!await attempt(status, () => put('permissions/membership/' + m.membership_id, {is_group_manager: manager.checked}),
                `${m.email} ${manager.checked ? 'manages' : 'no longer manages'} ${group.name}.`)) manager.checked = !manager.checked;
            }});
          return h('tr', {'data-email': m.email}, h('td', {}, nameOf(m)), h('td', {}, m.email), h('td', {}, manager),
            h('td', {}, builtIn ? h('span', {class: 'muted'}, 'Everyone is a member') : h('button', {type: 'button', class: 'link', onclick: async () => {
              if (await attempt(status, () => del('permissions/membership/' + m.membership_id), `${m.email} left ${group.name}.`)) await reload();
            }}, 'Remove')));
        }))))
        : h('p', {class: 'muted'}, 'No members yet.')),
      builtIn ? null : h('form', {class: 'card inline', onsubmit: async (e) => {
        e.preventDefault();
        if (!pick.value) return;
        if (await attempt(status, () => post('permissions/membership', {group_id: id, user_id: Number(pick.value)}), 'Added.')) await reload();
      }}, candidates.length ? [field('Add a member', pick), h('button', {type: 'submit', class: 'primary'}, 'Add')]
        : h('p', {class: 'muted'}, 'Everybody is already in this group.')));
  };
  await reload();
  mount(main, adminNav('admin/groups'), h('p', {class: 'crumbs'}, h('a', {href: 'admin/groups'}, 'Groups')), status, body);
}

// --- databases ------------------------------------------------------------------------------------------------------

function syncLabel(d) {
  if (d.initial_sync_status === 'complete') return 'Synced';
  if (d.initial_sync_status === 'aborted') return 'Sync failed';
  return 'Syncing…';
}

export async function adminDatabasesPage(main) {
  const databases = await get('database');
  const list = listOf(databases).filter((d) => !d.is_saved_questions);
  const status = h('div', {'aria-live': 'polite'});
  mount(main, adminNav('admin/databases'), h('div', {class: 'dash-head'}, h('h1', {}, 'Databases'),
    h('a', {class: 'button primary', href: 'admin/databases/new'}, 'Add a database')), status,
  h('section', {class: 'card'}, list.length ? h('div', {class: 'table-wrap'}, h('table', {class: 'results'},
    h('thead', {}, h('tr', {}, ['Name', 'Engine', 'Sync', 'Actions'].map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', {}, list.map((d) => h('tr', {'data-database': d.name}, h('td', {}, h('a', {href: 'admin/databases/' + d.id}, d.name)),
      h('td', {}, d.engine), h('td', {class: 'sync'}, syncLabel(d)),
      h('td', {class: 'actions'}, h('a', {href: 'browse/' + d.id}, 'Browse'), ' ',
        h('button', {type: 'button', class: 'link', onclick: () =>
          attempt(status, () => post(`database/${d.id}/sync_schema`, {}), `Sync of ${d.name} started.`)}, 'Sync now')))))))
    : h('p', {class: 'muted'}, 'No databases yet.')));
}

/**
 * The connection fields of an engine, from the `engines` setting's details-fields (name, display-name, type, default,
 * placeholder, required, helper-text). Answers {fields, read()}; `read()` gives the details object to send.
 * `values` pre-fills them (an existing database's details; secrets come back masked and are sent back as they are).
 */
export function engineFields(engines, engineKey, values = {}, prefix = '') {
  const inputs = {};
  const fields = ((engines[engineKey] || {})['details-fields'] || []).filter((f) => f.type !== 'hidden' && !f['visible-if']);
  const nodes = fields.map((f) => {
    const type = f.type === 'password' ? 'password' : f.type === 'integer' ? 'number' : 'text';
    const initial = values[f.name] !== undefined ? values[f.name] : f.default;
    const control = f.type === 'boolean'
      ? h('input', {type: 'checkbox', name: prefix + f.name, checked: initial === true})
      : h('input', {type, name: prefix + f.name, placeholder: f.placeholder ?? '', value: initial ?? '', required: f.required === true,
        autocomplete: type === 'password' ? 'new-password' : 'off'});
    inputs[f.name] = [f, control];
    return f.type === 'boolean'
      ? h('div', {class: 'field check'}, h('label', {}, control, ' ', f['display-name'] || f.name))
      : field(f['display-name'] || f.name, control, f['helper-text']);
  });
  const read = () => {
    const body = {};
    for (const [key, [f, control]] of Object.entries(inputs)) {
      if (f.type === 'boolean') body[key] = control.checked;
      else if (control.value !== '') body[key] = f.type === 'integer' ? Number(control.value) : control.value;
    }
    return body;
  };
  return {nodes, read};
}

export function engineSelect(engines, name = 'engine', extra = null) {
  return h('select', {name}, extra, Object.entries(engines).map(([key, e]) => h('option', {value: key}, e['driver-name'] || key)));
}

export async function adminNewDatabasePage(main, {app}) {
  const engines = app.props.engines || {};
  const engine = engineSelect(engines);
  const name = h('input', {name: 'name', required: true});
  const details = h('div', {class: 'details'});
  const status = h('div', {'aria-live': 'polite'});
  let form = engineFields(engines, engine.value);
  const renderDetails = () => { form = engineFields(engines, engine.value); mount(details, form.nodes); };
  engine.addEventListener('change', renderDetails);
  renderDetails();
  mount(main, adminNav('admin/databases'), h('form', {class: 'card narrow', onsubmit: async (e) => {
    e.preventDefault();
    mount(status, h('p', {class: 'muted'}, 'Connecting…'));
    try {
      const db = await post('database', {engine: engine.value, name: name.value, details: form.read()});
      app.navigate('admin/databases/' + db.id);
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }}, h('h1', {}, 'Add a database'), field('Database type', engine), field('Display name', name), details, status,
  h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save'),
    h('button', {type: 'button', onclick: async () => {
      try { await post('database/sample_database', {}); app.navigate('admin/databases'); } catch (err) { mount(status, errorBox(err.message)); }
    }}, 'Add the Sample Database instead'))));
}

export async function adminDatabasePage(main, {app, args}) {
  const id = Number(args[0]);
  const db = await get('database/' + id);
  const engines = app.props.engines || {};
  const status = h('div', {'aria-live': 'polite'});
  const name = h('input', {name: 'name', required: true, value: db.name});
  const form = engineFields(engines, db.engine, db.details || {});
  const syncState = h('span', {class: 'sync', 'data-status': db.initial_sync_status || ''}, syncLabel(db));
  const refreshSync = async () => {
    const again = await get('database/' + id);
    syncState.textContent = syncLabel(again);
    syncState.dataset.status = again.initial_sync_status || '';
  };
  const edit = h('form', {class: 'card', onsubmit: async (e) => {
    e.preventDefault();
    await attempt(status, () => put('database/' + id, {name: name.value, engine: db.engine, details: form.read()}),
      (saved) => `Saved ${saved.name}.`);
    heading.textContent = name.value;
  }}, h('h2', {}, 'Connection'), field('Display name', name), form.nodes,
  h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save changes'),
    h('button', {type: 'button', onclick: () => attempt(status, async () => {
      const r = await post('database/validate', {id, engine: db.engine, details: form.read()});
      if (r && r.valid === false) throw new Error('The connection does not work: ' + (r.message || 'check the details.'));
    }, 'The connection works.')}, 'Check the connection')));
  const heading = h('h1', {}, db.name);
  mount(main, adminNav('admin/databases'), h('p', {class: 'crumbs'}, h('a', {href: 'admin/databases'}, 'Databases')),
    h('div', {class: 'dash-head'}, heading, h('span', {class: 'muted'}, (engines[db.engine] || {})['driver-name'] || db.engine)),
    status,
    h('div', {class: 'grid2'}, edit,
      h('section', {class: 'card'}, h('h2', {}, 'Sync'),
        h('p', {}, 'Status: ', syncState, ' ', h('button', {type: 'button', class: 'link', onclick: refreshSync}, 'Refresh')),
        h('div', {class: 'actions'},
          h('button', {type: 'button', onclick: async () => {
            await attempt(status, () => post(`database/${id}/sync_schema`, {}), 'Sync started: tables and fields are being read again.');
            await refreshSync();
          }}, 'Sync now'),
          h('button', {type: 'button', onclick: () => attempt(status, () => post(`database/${id}/rescan_values`, {}),
            'Re-scan of field values started.')}, 'Re-scan field values'),
          h('a', {href: 'browse/' + id}, 'Browse its tables')),
        h('h2', {class: 'danger-zone'}, 'Remove'),
        h('p', {class: 'muted'}, 'Questions built on this database stop working when it is removed.'),
        confirmButton('Remove this database', `Remove ${db.name} and everything saved on it?`, 'Yes, remove it', async () => {
          if (await attempt(status, () => del('database/' + id))) app.navigate('admin/databases');
        }))));
}
