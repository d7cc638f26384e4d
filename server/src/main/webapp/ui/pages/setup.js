import {h, mount, field, errorBox} from '../dom.js';
import {get, post} from '../api.js';

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
  h('div', {class: 'field check'}, h('label', {}, sample, ' Add the Sample Database (a small shop: orders, products, people, reviews)')),
  status,
  h('button', {type: 'submit', class: 'primary'}, 'Finish setup'));
  mount(main, form);
  siteName.focus();
}
