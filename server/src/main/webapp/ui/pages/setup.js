import {h, mount, field, errorBox} from '../dom.js';
import {get, post} from '../api.js';
import {engineFields, engineSelect} from './admin.js';

// First run: POST /api/setup with the setup token from /api/session/properties, then optionally the Sample Database.
export async function setupPage(main, {app}) {
  const props = app.props;
  const siteName = h('input', {name: 'site_name', required: true, autocomplete: 'organization', value: 'Quarry'});
  const first = h('input', {name: 'first_name', autocomplete: 'given-name'});
  const last = h('input', {name: 'last_name', autocomplete: 'family-name'});
  const email = h('input', {name: 'email', type: 'email', required: true, autocomplete: 'email'});
  const password = h('input', {name: 'password', type: 'password', required: true, autocomplete: 'new-password'});
  const sample = h('input', {name: 'sample', type: 'checkbox', checked: true});
  const status = h('div', {'aria-live': 'polite'});
  // optional: a database of one's own (tried for real by POST /api/setup) and another administrator, invited by email
  const engines = props.engines || {};
  const engine = engineSelect(engines, 'setup-engine', h('option', {value: ''}, 'Not now'));
  const dbName = h('input', {name: 'db-name', autocomplete: 'off'});
  const dbDetails = h('div', {class: 'details'});
  const dbStatus = h('div', {'aria-live': 'polite'});
  let dbForm = null;
  engine.value = '';
  engine.addEventListener('change', () => {
    dbForm = engine.value ? engineFields(engines, engine.value, {}, 'db-') : null;
    mount(dbDetails, dbForm ? [field('Display name', dbName), dbForm.nodes,
      h('button', {type: 'button', onclick: async () => {
        try {
          const r = await post('setup/validate', {token: props['setup-token'], engine: engine.value, details: dbForm.read()});
          mount(dbStatus, r.valid === false ? errorBox(r.message || 'The connection does not work.') : h('p', {class: 'ok'}, 'The connection works.'));
        } catch (err) { mount(dbStatus, errorBox(err.message)); }
      }}, 'Check the connection'), dbStatus] : []);
    dbName.required = !!engine.value;
  });
  const invFirst = h('input', {name: 'invited_first_name', autocomplete: 'off'});
  const invLast = h('input', {name: 'invited_last_name', autocomplete: 'off'});
  const invEmail = h('input', {name: 'invited_email', type: 'email', autocomplete: 'off'});
  const complexity = props['password-complexity'] || {};
  const hint = `At least ${complexity.total || 6} characters` + (complexity.digit ? ', with a digit' : '') + '.';
  const form = h('form', {class: 'card narrow', onsubmit: async (e) => {
    e.preventDefault();
    mount(status, h('p', {class: 'muted'}, 'Setting up…'));
    try {
      await post('setup', {
        token: props['setup-token'],
        user: {email: email.value, password: password.value, first_name: first.value || null, last_name: last.value || null},
        prefs: {site_name: siteName.value, allow_tracking: false},
        database: engine.value ? {engine: engine.value, name: dbName.value, details: dbForm.read()} : undefined,
        invited_email: invEmail.value || undefined,
        invited_first_name: invEmail.value && invFirst.value ? invFirst.value : undefined,
        invited_last_name: invEmail.value && invLast.value ? invLast.value : undefined,
      });
      if (sample.checked) {
        await post('database/sample_database', {});
      }
      app.props = await get('session/properties');
      await app.refreshUser();
      app.navigate('', {replace: true});
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }},
  h('h1', {}, 'Welcome to Quarry'),
  h('p', {class: 'muted'}, 'Set up your instance: name it and create the first administrator.'),
  field('Your organisation’s name', siteName),
  h('div', {class: 'row'}, field('First name', first), field('Last name', last)),
  field('Email', email),
  field('Password', password, hint),
  h('h2', {}, 'Your data'),
  h('div', {class: 'field check'}, h('label', {}, sample, ' Add the Sample Database (a small shop: orders, products, people, reviews)')),
  field('Connect your own database (optional)', engine, 'You can also add databases later, in Admin → Databases.'),
  dbDetails,
  h('h2', {}, 'Invite another administrator (optional)'),
  h('div', {class: 'row'}, field('Their first name', invFirst), field('Their last name', invLast)),
  field('Their email', invEmail, 'They get an email with a link to choose a password (when email is set up).'),
  status,
  h('button', {type: 'submit', class: 'primary'}, 'Finish setup'));
  mount(main, form);
  siteName.focus();
}
