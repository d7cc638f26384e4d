import {h, mount, field, errorBox} from '../dom.js';
import {get, post, put, del} from '../api.js';

// Sharing a dashboard or a question: public link, signed-embed code, subscriptions (dashboards), alerts (questions),
// and the persistence switch of models. Each part is shown only when the instance allows it.

/** Fresh session properties: the ones read before sign-in lack the settings only signed-in people may read. */
export async function liveProperties() {
  try { return await get('session/properties'); } catch { return {}; }
}

function absolute(path) {
  return new URL(path, document.baseURI).href;
}

async function copy(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand && document.execCommand('copy');
  }
  mount(status, h('span', {class: 'ok'}, 'Copied.'));
}

function copyable(name, label, value) {
  const input = h('input', {name, value, readonly: true, class: 'copy-field', onfocus: () => input.select()});
  const status = h('span', {'aria-live': 'polite'});
  return h('div', {class: 'copy-row'}, field(label, input), h('button', {type: 'button', onclick: () => copy(input, status)}, 'Copy'), status);
}

/** kind: 'dashboard' or 'card'. */
export async function sharingSection(kind, item, app) {
  const props = await liveProperties();
  const admin = app.user && app.user.is_superuser;
  const box = h('section', {class: 'card share', 'aria-labelledby': 'h-share'}, h('h2', {id: 'h-share'}, 'Sharing'));
  const publicPart = h('div', {});
  const embedPart = h('div', {});
  box.append(publicPart, embedPart);
  const publicPath = (uuid) => absolute(`public/${kind === 'card' ? 'question' : 'dashboard'}/${uuid}`);

  function showPublic() {
    if (!props['enable-public-sharing']) {
      mount(publicPart, h('p', {class: 'muted'}, 'Public links are turned off by an administrator.'));
      return;
    }
    const message = h('div', {'aria-live': 'polite'});
    const toggle = h('input', {type: 'checkbox', name: 'public-link', checked: !!item.public_uuid, disabled: !admin, onchange: async () => {
      toggle.disabled = true;
      try {
        if (toggle.checked) item.public_uuid = (await post(`${kind}/${item.id}/public_link`)).uuid;
        else { await del(`${kind}/${item.id}/public_link`); item.public_uuid = null; }
        showPublic();
      } catch (e) {
        toggle.checked = !toggle.checked;
        toggle.disabled = false;
        mount(message, errorBox(e.message));
      }
    }});
    mount(publicPart, h('div', {class: 'field check'}, h('label', {}, toggle, 'Public link: anyone with the link can see this, without signing in')),
      !admin ? h('p', {class: 'muted'}, 'Only administrators can turn public links on or off.') : null,
      item.public_uuid ? copyable('public-url', 'Public link', publicPath(item.public_uuid)) : null, message);
  }

  function showEmbed() {
    if (!props['enable-embedding-static'] || !admin) {
      mount(embedPart);
      return;
    }
    const message = h('div', {'aria-live': 'polite'});
    const toggle = h('input', {type: 'checkbox', name: 'enable-embedding', checked: !!item.enable_embedding, onchange: async () => {
      toggle.disabled = true;
      try {
        const saved = await put(`${kind}/${item.id}`, {enable_embedding: toggle.checked});
        item.enable_embedding = saved.enable_embedding;
        showEmbed();
      } catch (e) {
        toggle.checked = !toggle.checked;
        toggle.disabled = false;
        mount(message, errorBox(e.message));
      }
    }});
    const site = (props['site-url'] || absolute('.')).replace(/\/$/, '');
    const resource = kind === 'card' ? 'question' : 'dashboard';
    const snippet = `// On your server: the embedding secret key (Admin › Embedding) never goes to the browser.
const jwt = require("jsonwebtoken");
const payload = {
  resource: { ${resource}: ${item.id} },
  params: {},
  exp: Math.round(Date.now() / 1000) + 10 * 60, // ten minutes
};
const token = jwt.sign(payload, process.env.QUARRY_EMBEDDING_SECRET_KEY);
const iframeUrl = "${site}/embed/${resource}/" + token + "#bordered=true&titled=true";
// <iframe src={iframeUrl} width="800" height="600" frameborder="0"></iframe>`;
    mount(embedPart, h('h3', {}, 'Embed in your application'),
      h('div', {class: 'field check'}, h('label', {}, toggle, 'Allow signed embedding of this ' + resource)),
      item.enable_embedding ? [h('p', {class: 'muted'}, 'Your server signs a token with the secret key and puts this URL in an iframe:'),
        h('pre', {class: 'snippet', 'data-embed-snippet': ''}, h('code', {}, snippet)),
        copyable('embed-url', 'Embed URL pattern', `${site}/embed/${resource}/{token}#bordered=true&titled=true`)] : null,
      message);
  }
  showPublic();
  showEmbed();
  if (kind === 'card' && item.type === 'model' && props['persisted-models-enabled']) box.append(await persistencePart(item));
  return box;
}

async function persistencePart(card) {
  let persisted = null;
  try { persisted = await get('persist/card/' + card.id); } catch { persisted = null; }
  const on = persisted && persisted.state && !/^(off|deletable|deleted)$/.test(persisted.state);
  const message = h('div', {'aria-live': 'polite'});
  const toggle = h('input', {type: 'checkbox', name: 'persist-model', checked: !!on, onchange: async () => {
    toggle.disabled = true;
    try {
      await post(`card/${card.id}/${toggle.checked ? 'persist' : 'unpersist'}`);
      mount(message, h('span', {class: 'ok'}, toggle.checked ? 'The model is cached in its database.' : 'The model is no longer cached.'));
    } catch (e) {
      toggle.checked = !toggle.checked;
      mount(message, errorBox(e.message));
    }
    toggle.disabled = false;
  }});
  return h('div', {}, h('h3', {}, 'Model caching'),
    h('div', {class: 'field check'}, h('label', {}, toggle, 'Keep a copy of this model’s results in its database (refreshed on a schedule)')), message);
}

// ---- subscriptions and alerts ----------------------------------------------------------------------------------

const DAYS = [['mon', 'Monday'], ['tue', 'Tuesday'], ['wed', 'Wednesday'], ['thu', 'Thursday'], ['fri', 'Friday'], ['sat', 'Saturday'], ['sun', 'Sunday']];

function scheduleFields() {
  const type = h('select', {name: 'schedule_type'}, [['hourly', 'Hourly'], ['daily', 'Daily'], ['weekly', 'Weekly']]
    .map(([v, t]) => h('option', {value: v, selected: v === 'daily'}, t)));
  const hour = h('select', {name: 'schedule_hour'}, Array.from({length: 24}, (_, i) => h('option', {value: i, selected: i === 8}, String(i).padStart(2, '0') + ':00')));
  const day = h('select', {name: 'schedule_day'}, DAYS.map(([v, t]) => h('option', {value: v}, t)));
  const hourField = field('At', hour);
  const dayField = field('On', day);
  const sync = () => {
    hourField.hidden = type.value === 'hourly';
    dayField.hidden = type.value !== 'weekly';
  };
  type.addEventListener('change', sync);
  sync();
  return {
    node: h('div', {class: 'row'}, field('Send', type), dayField, hourField),
    value: () => ({schedule_type: type.value, schedule_hour: type.value === 'hourly' ? null : Number(hour.value),
      schedule_day: type.value === 'weekly' ? day.value : null, schedule_frame: null}),
  };
}

function recipientsOf(text) {
  return text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function emailChannel(emails, schedule) {
  return {channel_type: 'email', enabled: true, recipients: emails.map((email) => ({email})), details: {}, ...schedule};
}

function describe(channel) {
  if (!channel) return '';
  const who = (channel.recipients || []).map((r) => r.email || r.common_name).join(', ');
  const when = channel.schedule_type === 'hourly' ? 'every hour'
    : channel.schedule_type === 'weekly' ? `weekly on ${channel.schedule_day} at ${channel.schedule_hour}:00` : `daily at ${channel.schedule_hour}:00`;
  return `${who} — ${when}`;
}

/** The e-mail subscription form of a dashboard, with the existing subscriptions; `values` are the filters' current values. */
export async function subscriptionSection(dashboard, filterValues) {
  const box = h('section', {class: 'card share', 'aria-labelledby': 'h-subs'}, h('h2', {id: 'h-subs'}, 'Subscriptions'));
  const list = h('div', {});
  const status = h('div', {'aria-live': 'polite', class: 'status'});
  const recipients = h('input', {name: 'recipients', type: 'text', placeholder: 'ana@example.com, team@example.com', required: true});
  const schedule = scheduleFields();
  const attach = h('input', {type: 'checkbox', name: 'include_csv'});
  const cards = dashboard.dashcards.filter((dc) => dc.card_id);

  function body() {
    const emails = recipientsOf(recipients.value);
    const bad = emails.filter((e) => !EMAIL.test(e));
    if (!emails.length || bad.length) throw new Error(bad.length ? `Not an e-mail address: ${bad.join(', ')}` : 'Add at least one e-mail address.');
    return {name: dashboard.name, dashboard_id: dashboard.id, skip_if_empty: false,
      cards: cards.map((dc) => ({id: dc.card_id, include_csv: attach.checked, include_xls: false, dashboard_card_id: dc.id})),
      channels: [emailChannel(emails, schedule.value())],
      parameters: (dashboard.parameters || []).filter((p) => filterValues(p)).map((p) => ({...p, value: filterValues(p)}))};
  }

  async function refresh() {
    const pulses = await get('pulse?dashboard_id=' + dashboard.id).catch(() => []);
    mount(list, pulses.length ? h('ul', {class: 'items'}, pulses.map((p) => h('li', {'data-pulse': p.id},
      h('span', {}, describe((p.channels || [])[0])),
      h('button', {type: 'button', class: 'link', 'aria-label': 'Delete the subscription ' + describe((p.channels || [])[0]), onclick: async () => {
        await put('pulse/' + p.id, {archived: true});
        refresh();
      }}, 'Delete'))))
      : h('p', {class: 'muted'}, 'No subscriptions yet.'));
  }

  async function submit(test) {
    let b;
    try { b = body(); } catch (e) { mount(status, errorBox(e.message)); recipients.focus(); return; }
    mount(status, h('span', {class: 'muted'}, test ? 'Sending…' : 'Saving…'));
    try {
      if (test) {
        await post('pulse/test', b);
        mount(status, h('span', {class: 'ok', 'data-sent': ''}, 'Sent to ' + recipientsOf(recipients.value).join(', ') + '.'));
      } else {
        await post('pulse', b);
        mount(status, h('span', {class: 'ok', 'data-saved': ''}, 'Subscription created.'));
        refresh();
      }
    } catch (e) {
      mount(status, errorBox(e.message));
    }
  }

  box.append(list, h('form', {class: 'subscribe', onsubmit: (e) => { e.preventDefault(); submit(false); }},
    h('h3', {}, 'New e-mail subscription'),
    field('Recipients (e-mail addresses, separated by commas)', recipients),
    schedule.node,
    h('div', {class: 'field check'}, h('label', {}, attach, 'Attach the results as CSV files')),
    cards.length ? null : h('p', {class: 'muted'}, 'This dashboard has no questions to send yet.'),
    status,
    h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'primary'}, 'Create subscription'),
      h('button', {type: 'button', onclick: () => submit(true)}, 'Send now'))));
  await refresh();
  return box;
}

/** The alert form of a question: when it has rows (or crosses its goal line), e-mail these people. */
export async function alertSection(card) {
  const box = h('section', {class: 'card share', 'aria-labelledby': 'h-alerts'}, h('h2', {id: 'h-alerts'}, 'Alerts'));
  const list = h('div', {});
  const status = h('div', {'aria-live': 'polite', class: 'status'});
  const goal = card.visualization_settings && card.visualization_settings['graph.goal_value'];
  const condition = h('select', {name: 'alert_condition'}, h('option', {value: 'rows'}, 'When this question has results'),
    goal != null ? [h('option', {value: 'goal-above'}, `When it goes above the goal (${goal})`),
      h('option', {value: 'goal-below'}, `When it goes below the goal (${goal})`)] : null);
  const firstOnly = h('input', {type: 'checkbox', name: 'alert_first_only'});
  const recipients = h('input', {name: 'recipients', type: 'text', placeholder: 'ana@example.com', required: true});
  const schedule = scheduleFields();

  async function refresh() {
    const alerts = await get('alert/question/' + card.id).catch(() => []);
    mount(list, alerts.length ? h('ul', {class: 'items'}, alerts.map((a) => h('li', {'data-alert': a.id},
      h('span', {}, (a.alert_condition === 'rows' ? 'Has results' : 'Crosses the goal') + ': ' + describe((a.channels || [])[0])),
      h('button', {type: 'button', class: 'link', onclick: async () => { await put('alert/' + a.id, {archived: true}); refresh(); }}, 'Delete'))))
      : h('p', {class: 'muted'}, 'No alerts yet.'));
  }

  box.append(list, h('form', {class: 'alert-form', onsubmit: async (e) => {
    e.preventDefault();
    const emails = recipientsOf(recipients.value);
    const bad = emails.filter((x) => !EMAIL.test(x));
    if (!emails.length || bad.length) {
      mount(status, errorBox(bad.length ? `Not an e-mail address: ${bad.join(', ')}` : 'Add at least one e-mail address.'));
      return;
    }
    const c = condition.value;
    try {
      await post('alert', {alert_condition: c === 'rows' ? 'rows' : 'goal', alert_above_goal: c === 'rows' ? null : c === 'goal-above',
        alert_first_only: firstOnly.checked, card: {id: card.id, include_csv: false, include_xls: false},
        channels: [emailChannel(emails, schedule.value())]});
      mount(status, h('span', {class: 'ok', 'data-saved': ''}, 'Alert created.'));
      refresh();
    } catch (err) {
      mount(status, errorBox(err.message));
    }
  }}, h('h3', {}, 'New alert'), field('Alert me', condition), field('Recipients (e-mail addresses)', recipients), schedule.node,
  h('div', {class: 'field check'}, h('label', {}, firstOnly, 'Only the first time, then stop')), status,
  h('button', {type: 'submit', class: 'primary'}, 'Create alert')));
  await refresh();
  return box;
}

/** The page question/:id/sharing: public link, embed code, alerts and (models) caching of one question. */
export async function questionSharingPage(main, {args, app}) {
  const card = await get('card/' + args[0]);
  mount(main, h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'}, h('a', {href: 'question/' + card.id}, card.name), ' / '),
    h('h1', {}, 'Share “' + card.name + '”'),
    await sharingSection('card', card, app),
    await alertSection(card));
}
