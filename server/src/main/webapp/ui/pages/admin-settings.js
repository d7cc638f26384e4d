import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put, del} from '../api.js';
import {adminNav, attempt, confirmButton} from './admin.js';

// Settings (general, e-mail, sharing and embedding, model persistence) and API keys. Only what /api exposes: settings
// through /api/setting, SMTP through /api/email, persistence through /api/persist, keys through /api/api-key.

const SECTIONS = [['general', 'General'], ['email', 'Email'], ['sharing', 'Sharing and embedding'], ['persistence', 'Model caching']];

function settingsNav(current) {
  return h('nav', {class: 'tabs subtabs', 'aria-label': 'Settings sections'}, SECTIONS.map(([key, label]) =>
    h('a', {href: 'admin/settings/' + key, 'aria-current': key === current ? 'page' : null}, label)));
}

/** Masks a secret for display: its last four characters only. */
export function masked(secret) {
  if (!secret) return '';
  const text = String(secret).replace(/^\*+/, '');
  return '••••••••••' + text.slice(-4);
}

export async function adminSettingsPage(main, {app, args}) {
  const section = args[0] || 'general';
  const settings = await get('setting');
  const byKey = Object.fromEntries(settings.map((s) => [s.key, s]));
  // a value set by an environment variable is not shown by the API (its `default` says "Using value of env var …")
  const fromEnv = (key) => !!(byKey[key] && byKey[key].is_env_setting);
  const value = (key) => { const s = byKey[key]; return s && !s.is_env_setting ? (s.value ?? s.default ?? null) : null; };
  const envPlaceholder = (key) => (fromEnv(key) ? `Set by $${byKey[key].env_name || 'an environment variable'}` : null);
  const envNote = (key) => (fromEnv(key) ? h('small', {class: 'muted'}, `Set by the environment variable ${byKey[key].env_name || ''}.`) : null);
  const status = h('div', {'aria-live': 'polite'});
  const refreshProps = async () => { app.props = await get('session/properties'); };

  const toggle = (key, label, onChange) => {
    const box = h('input', {type: 'checkbox', name: key, checked: value(key) === true || value(key) === 'true', disabled: fromEnv(key), onchange: async () => {
      const ok = await attempt(status, async () => {
        if (onChange) await onChange(box.checked);
        else await put('setting/' + key, {value: box.checked});
        await refreshProps();
      }, `${label}: ${box.checked ? 'on' : 'off'}.`);
      if (!ok) box.checked = !box.checked;
    }});
    return h('div', {class: 'field check switch'}, h('label', {}, box, ' ', label), envNote(key));
  };

  let body;
  if (section === 'general') {
    const siteName = h('input', {name: 'site-name', required: !fromEnv('site-name'), value: value('site-name') || '', disabled: fromEnv('site-name'),
      placeholder: envPlaceholder('site-name')});
    const siteUrl = h('input', {name: 'site-url', type: 'url', value: value('site-url') || '', disabled: fromEnv('site-url'),
      placeholder: envPlaceholder('site-url') || 'https://bi.example.com/quarry'});
    const zones = value('available-timezones') || (app.props && app.props['available-timezones']) || [];
    const zone = h('select', {name: 'report-timezone', disabled: fromEnv('report-timezone')},
      h('option', {value: ''}, 'Database default'), zones.map((z) => h('option', {value: z, selected: z === value('report-timezone')}, z)));
    body = h('form', {class: 'card narrow', onsubmit: async (e) => {
      e.preventDefault();
      const changes = {};
      if (!fromEnv('site-name')) changes['site-name'] = siteName.value;
      if (!fromEnv('site-url')) changes['site-url'] = siteUrl.value || null;
      if (!fromEnv('report-timezone')) changes['report-timezone'] = zone.value || null;
      if (await attempt(status, () => put('setting', changes), 'Saved.')) {
        await refreshProps();
        const brand = document.querySelector('#top .brand');
        if (brand) brand.textContent = app.props['site-name'] || 'Quarry';
      }
    }}, h('h2', {}, 'General'), field('Site name', siteName), envNote('site-name'),
    field('Site URL', siteUrl, 'The address people use to reach Quarry; links in emails start with it.'), envNote('site-url'),
    field('Report time zone', zone, 'Dates in questions are shown in this zone.'), envNote('report-timezone'),
    h('button', {type: 'submit', class: 'primary'}, 'Save'));
  } else if (section === 'email') {
    const keys = [['email-smtp-host', 'SMTP host', 'text'], ['email-smtp-port', 'SMTP port', 'number'],
      ['email-smtp-username', 'SMTP username', 'text'], ['email-smtp-password', 'SMTP password', 'password'],
      ['email-from-name', 'From name', 'text'], ['email-from-address', 'From address', 'email']];
    const inputs = Object.fromEntries(keys.map(([key, , type]) => [key, h('input', {name: key, type, disabled: fromEnv(key),
      value: value(key) ?? '', placeholder: envPlaceholder(key), autocomplete: type === 'password' ? 'new-password' : 'off'})]));
    const security = h('select', {name: 'email-smtp-security', disabled: fromEnv('email-smtp-security')},
      [['none', 'None'], ['ssl', 'SSL'], ['tls', 'TLS'], ['starttls', 'STARTTLS']].map(([v, t]) =>
        h('option', {value: v, selected: (value('email-smtp-security') || 'none') === v}, t)));
    const anyEnv = keys.some(([key]) => fromEnv(key));
    const testStatus = h('div', {'aria-live': 'polite', class: 'test-result'});
    body = h('div', {},
      h('form', {class: 'card narrow', onsubmit: async (e) => {
        e.preventDefault();
        const change = {'email-smtp-security': security.value};
        for (const [key, , type] of keys) {
          if (fromEnv(key)) continue;
          const v = inputs[key].value;
          change[key] = v === '' ? null : type === 'number' ? Number(v) : v;
        }
        if (await attempt(status, () => put('email', change), 'Email settings saved: the connection works.')) await refreshProps();
      }}, h('h2', {}, 'SMTP'),
      anyEnv ? h('p', {class: 'muted'}, 'Some of these are set by environment variables and cannot be changed here.') : null,
      keys.map(([key, label]) => field(label, inputs[key])), field('Security', security),
      h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Save'),
        confirmButton('Clear the email settings', 'Forget the SMTP settings?', 'Yes, clear them', async () => {
          if (await attempt(status, () => del('email'), 'Email settings cleared.')) await refreshProps();
        }))),
      h('section', {class: 'card narrow'}, h('h2', {}, 'Send a test email'),
        h('p', {class: 'muted'}, `A short message goes to your own address (${app.user.email}) with the saved settings.`),
        h('button', {type: 'button', onclick: async (e) => {
          e.target.disabled = true;
          mount(testStatus, h('p', {class: 'muted'}, 'Sending…'));
          try {
            await attempt(testStatus, () => post('email/test', {}), `Sent: check ${app.user.email}.`);
          } finally { e.target.disabled = false; }
        }}, 'Send test email'), testStatus));
  } else if (section === 'sharing') {
    // The key is sensitive: the API only ever answers it obfuscated. A newly generated one can be copied once, here.
    const key = h('code', {class: 'secret', 'data-secret': value('embedding-secret-key') ? 'set' : 'unset'},
      value('embedding-secret-key') ? masked(value('embedding-secret-key')) : 'No key yet');
    const keyActions = h('div', {class: 'actions'});
    const fresh = h('div');
    const setKey = async () => {
      const token = (await get('util/random_token')).token;
      await put('setting/embedding-secret-key', {value: token});
      key.textContent = masked(token);
      key.dataset.secret = 'set';
      const copied = h('span', {'aria-live': 'polite', class: 'muted'});
      mount(fresh, h('p', {class: 'muted'}, 'Copy the new key now into the application that signs the embeds; later it is only shown masked. ',
        h('button', {type: 'button', class: 'primary', onclick: async () => {
          try { await navigator.clipboard.writeText(token); copied.textContent = 'Copied.'; } catch { copied.textContent = 'Copying is not allowed here.'; }
        }}, 'Copy the key'), ' ', copied));
      renderKeyActions(true);
    };
    const renderKeyActions = (isSet) => mount(keyActions, fromEnv('embedding-secret-key') ? envNote('embedding-secret-key')
      : isSet
        ? confirmButton('Reset the key', 'Replace the key? Existing embeds stop working.', 'Yes, reset it',
          () => attempt(status, setKey, 'A new embedding secret key is set.'))
        : h('button', {type: 'button', onclick: () => attempt(status, setKey, 'An embedding secret key is set.')}, 'Generate a key'));
    renderKeyActions(!!value('embedding-secret-key'));
    body = h('div', {},
      h('section', {class: 'card narrow'}, h('h2', {}, 'Public sharing'),
        toggle('enable-public-sharing', 'Public sharing (links anyone can open)')),
      h('section', {class: 'card narrow'}, h('h2', {}, 'Static embedding'),
        toggle('enable-embedding-static', 'Static embedding (signed embeds in other applications)'),
        h('p', {}, 'Embedding secret key: ', key),
        h('small', {class: 'muted'}, 'Applications sign their embed tokens with this key. Changing it breaks the embeds signed with the old one.'),
        fresh, keyActions));
  } else if (section === 'persistence') {
    const cron = value('persisted-model-refresh-cron-schedule') || '';
    const hours = [1, 2, 3, 6, 12, 24];
    const cronOf = (n) => (n === 24 ? '0 0 0 * * ? *' : `0 0 0/${n} * * ? *`);
    const schedule = h('select', {name: 'refresh-every'}, hours.map((n) =>
      h('option', {value: n, selected: cron === cronOf(n)}, n === 1 ? 'Every hour' : n === 24 ? 'Every day' : `Every ${n} hours`)),
    hours.some((n) => cron === cronOf(n)) || !cron ? null : h('option', {value: '', selected: true}, 'Custom: ' + cron));
    body = h('section', {class: 'card narrow'}, h('h2', {}, 'Model caching'),
      h('p', {class: 'muted'}, 'Models can be kept as tables in their database, refreshed on a schedule, so questions on them run faster.'),
      toggle('persisted-models-enabled', 'Cache models in their databases', (on) => post(on ? 'persist/enable' : 'persist/disable', {})),
      h('form', {class: 'inline', onsubmit: (e) => {
        e.preventDefault();
        if (!schedule.value) return;
        attempt(status, () => post('persist/set-refresh-schedule', {cron: cronOf(Number(schedule.value))}), 'Refresh schedule saved.');
      }}, field('Refresh', schedule), h('button', {type: 'submit'}, 'Save schedule')));
  } else {
    body = h('p', {}, 'No such section.');
  }
  const label = (SECTIONS.find(([key]) => key === section) || [, 'Settings'])[1];
  mount(main, adminNav('admin/settings'), h('h1', {}, 'Settings: ' + label), settingsNav(section), status, body);
}

// --- API keys -------------------------------------------------------------------------------------------------------

function shownOnce(key, what) {
  const input = h('input', {name: 'new-api-key', readonly: true, value: key, class: 'secret', 'aria-label': 'The new API key', size: 48});
  const copied = h('span', {'aria-live': 'polite', class: 'muted'});
  return h('div', {class: 'card once', role: 'region', 'aria-label': 'New API key'},
    h('h2', {}, what),
    h('p', {}, 'Copy it now: it is shown only this once. Send it in the ', h('code', {}, 'x-api-key'), ' header.'),
    h('div', {class: 'actions'}, input, h('button', {type: 'button', class: 'primary', onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(key);
      } catch {
        document.execCommand('copy');
      }
      copied.textContent = 'Copied.';
    }}, 'Copy'), copied));
}

export async function adminApiKeysPage(main) {
  const status = h('div', {'aria-live': 'polite'});
  const once = h('div');
  const list = h('section', {class: 'card'});
  const groups = await get('permissions/group');
  const reload = async () => {
    const keys = await get('api-key');
    mount(list, keys.length ? h('div', {class: 'table-wrap'}, h('table', {class: 'results keys'},
      h('thead', {}, h('tr', {}, ['Name', 'Group', 'Key', 'Last changed', 'Actions'].map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', {}, keys.map((k) => h('tr', {'data-key': k.name}, h('td', {}, k.name), h('td', {}, (k.group && k.group.name) || ''),
        h('td', {}, h('code', {}, k.masked_key || '')),
        h('td', {}, k.updated_at ? new Date(k.updated_at).toLocaleString() : ''),
        h('td', {class: 'actions'},
          confirmButton('Regenerate', `Regenerate ${k.name}? The old key stops working.`, 'Yes, regenerate', async () => {
            try {
              const again = await put(`api-key/${k.id}/regenerate`, {});
              mount(once, shownOnce(again.unmasked_key, `The new key of ${k.name}`));
              mount(status);
              await reload();
            } catch (err) { mount(status, errorBox(err.message)); }
          }), ' ',
          confirmButton('Delete', `Delete ${k.name}?`, 'Yes, delete', async () => {
            if (await attempt(status, () => del('api-key/' + k.id), `${k.name} is deleted.`)) { mount(once); await reload(); }
          })))))))
      : h('p', {class: 'muted'}, 'No API keys yet.'));
  };
  await reload();
  const name = h('input', {name: 'key-name', required: true, autocomplete: 'off'});
  const group = h('select', {name: 'key-group'}, groups.map((g) => h('option', {value: g.id, selected: g.id === 1}, g.name)));
  const form = h('form', {class: 'card', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const created = await post('api-key', {name: name.value, group_id: Number(group.value)});
      mount(once, shownOnce(created.unmasked_key, `The key ${created.name}`));
      mount(status);
      form.reset();
      await reload();
    } catch (err) { mount(status, errorBox(err.message)); }
  }}, h('h2', {}, 'Create an API key'),
  h('div', {class: 'row'}, field('Name', name), field('Group', group, 'The key acts with the rights of this group.')),
  h('button', {type: 'submit', class: 'primary'}, 'Create the key'));
  mount(main, adminNav('admin/api-keys'), h('h1', {}, 'API keys'), status, once, list, form);
}
