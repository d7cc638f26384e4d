import {h, mount} from './dom.js';
import {get, del, ApiError} from './api.js';
import {setupPage} from './pages/setup.js';
import {loginPage, forgotPage, resetPage} from './pages/auth.js';
import {homePage, collectionPage, searchPage, trashPage} from './pages/home.js';
import {browsePage, databasePage, schemaPage, tablePage} from './pages/browse.js';
import {questionPage} from './pages/question.js';
import {dashboardPage, newDashboardPage, publicDashboardPage, publicQuestionPage, embedDashboardPage} from './pages/dashboard.js';
import {questionSharingPage} from './pages/dash-share.js';
import {adminPeoplePage, adminGroupsPage, adminGroupPage, adminDatabasesPage, adminNewDatabasePage, adminDatabasePage} from './pages/admin.js';
import {adminDataPermissionsPage, adminCollectionPermissionsPage} from './pages/admin-perms.js';
import {adminSettingsPage, adminApiKeysPage} from './pages/admin-settings.js';

// Client-side routes, relative to <base>. The server answers index.html for all of them.
const routes = [
  [/^setup$/, setupPage, {anonymous: true}],
  [/^auth\/login$/, loginPage, {anonymous: true}],
  [/^auth\/forgot_password$/, forgotPage, {anonymous: true}],
  [/^auth\/reset_password\/([^/]+)$/, resetPage, {anonymous: true}],
  [/^$/, homePage],
  [/^collection\/(root|\d+)$/, collectionPage],
  [/^search$/, searchPage],
  [/^trash$/, trashPage],
  [/^browse$/, browsePage],
  [/^browse\/(\d+)$/, databasePage],
  [/^browse\/(\d+)\/schema\/([^/]+)$/, schemaPage],
  [/^table\/(\d+)$/, tablePage],
  [/^question\/new$/, questionPage],
  [/^question\/(\d+)$/, questionPage],
  [/^question\/(\d+)\/sharing$/, questionSharingPage],
  [/^dashboard\/new$/, newDashboardPage],
  [/^dashboard\/(\d+)$/, dashboardPage],
  [/^public\/dashboard\/([^/]+)$/, publicDashboardPage, {anonymous: true}],
  [/^public\/question\/([^/]+)$/, publicQuestionPage, {anonymous: true}],
  [/^embed\/dashboard\/([^/]+)$/, embedDashboardPage, {anonymous: true}],
  [/^admin$/, adminPeoplePage, {admin: true}],
  [/^admin\/people$/, adminPeoplePage, {admin: true}],
  [/^admin\/databases$/, adminDatabasesPage, {admin: true}],
  [/^admin\/databases\/new$/, adminNewDatabasePage, {admin: true}],
  [/^admin\/databases\/(\d+)$/, adminDatabasePage, {admin: true}],
  [/^admin\/groups$/, adminGroupsPage, {admin: true}],
  [/^admin\/groups\/(\d+)$/, adminGroupPage, {admin: true}],
  [/^admin\/permissions$/, adminDataPermissionsPage, {admin: true}],
  [/^admin\/permissions\/collections$/, adminCollectionPermissionsPage, {admin: true}],
  [/^admin\/api-keys$/, adminApiKeysPage, {admin: true}],
  [/^admin\/settings(?:\/(general|email|sharing|persistence))?$/, adminSettingsPage, {admin: true}],
];

export const app = {user: null, props: null, navigate, refreshUser, basePath: new URL(document.baseURI).pathname};

export function navigate(path, {replace = false} = {}) {
  const url = new URL(path, document.baseURI);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  render();
}

async function refreshUser() {
  try {
    app.user = await get('user/current');
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    app.user = null;
  }
}

function currentRoute() {
  const path = decodeURI(location.pathname.startsWith(app.basePath) ? location.pathname.slice(app.basePath.length) : location.pathname.replace(/^\//, ''));
  return path.replace(/\/$/, '');
}

function renderHeader() {
  const top = document.getElementById('top');
  const siteName = (app.props && app.props['site-name']) || 'Quarry';
  if (!app.user) {
    mount(top, h('nav', {class: 'bar', 'aria-label': 'Main'}, h('a', {class: 'brand', href: './'}, siteName)));
    return;
  }
  const search = h('input', {type: 'search', name: 'q', placeholder: 'Search…', 'aria-label': 'Search'});
  mount(top, h('nav', {class: 'bar', 'aria-label': 'Main'},
    h('a', {class: 'brand', href: './'}, siteName),
    h('a', {href: './'}, 'Home'),
    h('a', {href: 'browse'}, 'Browse data'),
    h('a', {href: 'question/new'}, 'New question'),
    h('a', {href: 'dashboard/new'}, 'New dashboard'),
    app.user.is_superuser ? h('a', {href: 'admin/people'}, 'Admin') : null,
    h('form', {class: 'search', role: 'search', onsubmit: (e) => {
      e.preventDefault();
      navigate('search?q=' + encodeURIComponent(search.value));
    }}, search),
    h('span', {class: 'who'}, app.user.common_name || app.user.email),
    h('button', {type: 'button', class: 'link', onclick: signOut}, 'Sign out')));
}

async function signOut() {
  try { await del('session'); } catch { /* already gone */ }
  app.user = null;
  navigate('auth/login');
}

let renderCount = 0;
export async function render() {
  const mine = ++renderCount;
  const main = document.getElementById('main');
  const route = currentRoute();
  try {
    if (!app.props || !app.props['has-user-setup']) app.props = await get('session/properties');
    if (!app.props['has-user-setup']) {
      if (route !== 'setup') return navigate('setup', {replace: true});
    } else if (app.user === null) {
      await refreshUser();
    }
    const match = routes.map(([re, page, opts]) => [route.match(re), page, opts || {}]).find(([m]) => m);
    if (!match) {
      renderHeader();
      mount(main, h('h1', {}, 'Not found'), h('p', {}, h('a', {href: './'}, 'Go home')));
      return;
    }
    const [m, page, opts] = match;
    if (!opts.anonymous && !app.user) {
      return navigate('auth/login?redirect=' + encodeURIComponent(route + location.search), {replace: true});
    }
    renderHeader();
    if (opts.admin && !app.user.is_superuser) {
      mount(main, h('h1', {}, 'Not allowed'), h('p', {role: 'alert'}, "You don't have permissions to see the admin pages."));
      return;
    }
    mount(main, h('p', {class: 'muted'}, 'Loading…'));
    const params = new URLSearchParams(location.search);
    await page(main, {args: m.slice(1), params, app, isCurrent: () => mine === renderCount});
    if (mine === renderCount) {
      if (!main.contains(document.activeElement) || document.activeElement === main) main.focus({preventScroll: true});
      const heading = main.querySelector('h1');
      document.title = (heading ? heading.textContent + ' · ' : '') + ((app.props && app.props['site-name']) || 'Quarry');
    }
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      app.user = null;
      return navigate('auth/login', {replace: true});
    }
    if (e instanceof ApiError && (e.status === 403 || e.status === 404)) {
      mount(main, h('h1', {}, e.status === 403 ? 'Not allowed' : 'Not found'), h('p', {role: 'alert'}, e.message),
        h('p', {}, h('a', {href: './'}, 'Go home')));
      return;
    }
    console.error(e);
    mount(main, h('h1', {}, 'Something went wrong'), h('p', {class: 'error', role: 'alert'}, e.message));
  }
}

// Same-document links: anything under <base> that is not a download or a new window is routed here.
document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[href]');
  if (!a || a.target || a.hasAttribute('download') || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(app.basePath) || url.pathname.startsWith(app.basePath + 'api/')) return;
  if (url.hash && url.pathname === location.pathname) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', render);
render();
