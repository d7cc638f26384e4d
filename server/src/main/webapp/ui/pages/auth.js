import {h, mount, field, errorBox} from '../dom.js';
import {get, post} from '../api.js';

export async function loginPage(main, {app, params}) {
  if (app.user) return app.navigate('', {replace: true});
  const username = h('input', {name: 'username', type: 'email', required: true, autocomplete: 'username'});
  const password = h('input', {name: 'password', type: 'password', required: true, autocomplete: 'current-password'});
  const remember = h('input', {type: 'checkbox', name: 'remember', checked: true});
  const status = h('div', {'aria-live': 'polite'});
  mount(main, h('form', {class: 'card narrow', onsubmit: async (e) => {
    e.preventDefault();
    try {
      await post('session', {username: username.value, password: password.value, remember: remember.checked});
      await app.refreshUser();
      const redirect = params.get('redirect');
      app.navigate(redirect && !redirect.startsWith('/') && !redirect.includes(':') ? redirect : '', {replace: true});
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }},
  h('h1', {}, 'Sign in'),
  field('Email address', username),
  field('Password', password),
  h('div', {class: 'field check'}, h('label', {}, remember, ' Remember me')),
  status,
  h('button', {type: 'submit', class: 'primary'}, 'Sign in'),
  h('p', {}, h('a', {href: 'auth/forgot_password'}, 'I forgot my password'))));
  username.focus();
}

export async function forgotPage(main) {
  const email = h('input', {name: 'email', type: 'email', required: true, autocomplete: 'email'});
  const status = h('div', {'aria-live': 'polite'});
  mount(main, h('form', {class: 'card narrow', onsubmit: async (e) => {
    e.preventDefault();
    try {
      await post('session/forgot_password', {email: email.value});
      mount(status, h('p', {class: 'ok'}, 'If that address has an account, an email with a link to reset the password is on its way.'));
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }},
  h('h1', {}, 'Forgot your password?'),
  field('Email address', email),
  status,
  h('button', {type: 'submit', class: 'primary'}, 'Send a reset link'),
  h('p', {}, h('a', {href: 'auth/login'}, 'Back to sign in'))));
  email.focus();
}

// The link in reset and invitation emails: {site-url}/auth/reset_password/<token> (#new for invitations).
export async function resetPage(main, {app, args}) {
  const token = args[0];
  const invited = location.hash === '#new';
  const check = await get('session/password_reset_token_valid?token=' + encodeURIComponent(token)).catch(() => ({valid: false}));
  if (!check.valid) {
    mount(main, h('div', {class: 'card narrow'}, h('h1', {}, 'This link has expired'),
      h('p', {role: 'alert'}, 'Password links work once and for a limited time; this one was already used, is too old, or was not copied whole.'),
      h('p', {}, 'Ask for a new one: ', h('a', {href: 'auth/forgot_password'}, 'reset your password'), '.')));
    return;
  }
  const password = h('input', {name: 'password', type: 'password', required: true, autocomplete: 'new-password'});
  const confirm = h('input', {name: 'confirm', type: 'password', required: true, autocomplete: 'new-password'});
  const status = h('div', {'aria-live': 'polite'});
  mount(main, h('form', {class: 'card narrow', onsubmit: async (e) => {
    e.preventDefault();
    if (password.value !== confirm.value) return mount(status, errorBox('The passwords do not match.'));
    try {
      await post('session/reset_password', {token, password: password.value});
      await app.refreshUser();
      app.navigate('', {replace: true});
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }},
  h('h1', {}, invited ? 'Welcome! Choose your password' : 'Choose a new password'),
  field('New password', password),
  field('Confirm the password', confirm),
  status,
  h('button', {type: 'submit', class: 'primary'}, 'Save the password')));
  password.focus();
}
