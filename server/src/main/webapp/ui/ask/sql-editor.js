import {h, mount} from '../dom.js';
import {get} from '../api.js';

// The SQL editor: a plain <textarea> (so typing, selection, undo and screen readers behave as everywhere) over a
// highlighted copy of its text, plus a schema-aware completion list fed by GET /api/database/:id/autocomplete_suggestions.

const KEYWORDS = new Set(('select from where and or not in is null like between group by order having limit offset join left right '
  + 'inner outer full cross on as distinct case when then else end union all exists count sum avg min max with asc desc insert '
  + 'update delete into values set create table view cast coalesce true false interval date timestamp extract over partition '
  + 'filter any some lower upper round nullif ilike').split(' '));
const COMPLETE_KEYWORDS = [...KEYWORDS].filter((k) => k.length > 3).map((k) => k.toUpperCase());

/** Splits SQL into [kind, text] tokens; the kinds become CSS classes. Pure, so it is easy to check by eye. */
export function tokenize(sql) {
  const out = [];
  const re = /(--[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|('(?:[^']|'')*'?)|("(?:[^"]|"")*"?)|(\{\{[\s\S]*?(?:\}\}|$))|(\[\[|\]\])|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_$]*)|(\s+)|(.)/g;
  let m;
  while ((m = re.exec(sql))) {
    const [text, comment, string, quoted, tag, optional, number, word] = m;
    let kind = 'plain';
    if (comment) kind = 'comment';
    else if (string) kind = 'string';
    else if (quoted) kind = 'ident';
    else if (tag) kind = /^\{\{\s*snippet:/i.test(tag) ? 'snippet' : 'tag';
    else if (optional) kind = 'optional';
    else if (number) kind = 'number';
    else if (word) kind = KEYWORDS.has(word.toLowerCase()) ? 'keyword' : 'word';
    const last = out[out.length - 1];
    if (last && last[0] === kind && kind === 'plain') last[1] += text;
    else out.push([kind, text]);
  }
  return out;
}

let editors = 0;

/**
 * options: value, label (the accessible name), databaseId() → the database to complete against, onInput(value),
 * onRun(). Returns {element, textarea, value(), setValue(text), insert(text)}.
 */
export function sqlEditor({value = '', describedBy, databaseId, onInput, onRun}) {
  const n = ++editors;
  const listId = 'sql-complete-' + n;
  const highlight = h('pre', {class: 'sql-highlight', 'aria-hidden': 'true'});
  const textarea = h('textarea', {name: 'sql', class: 'sql', rows: 10, spellcheck: 'false', autocomplete: 'off',
    autocapitalize: 'off', 'aria-describedby': describedBy, 'aria-autocomplete': 'list', 'aria-controls': listId,
    'aria-expanded': 'false', value});
  const list = h('ul', {id: listId, class: 'sql-complete', role: 'listbox', 'aria-label': 'Suggestions', hidden: true});
  const element = h('div', {class: 'sql-editor'}, highlight, textarea, list);
  let suggestions = [];
  let active = 0;
  let navigated = false;
  let timer = null;
  let asked = 0;

  function paint() {
    mount(highlight, tokenize(textarea.value).map(([kind, text]) => kind === 'plain' ? text : h('span', {class: 'tk-' + kind}, text)),
      '\n'); // a trailing newline keeps the last line's height when the text ends with one
    highlight.scrollTop = textarea.scrollTop;
    highlight.scrollLeft = textarea.scrollLeft;
  }

  /** The identifier being typed just before the caret, or ''. */
  function currentWord() {
    if (textarea.selectionStart !== textarea.selectionEnd) return '';
    const before = textarea.value.slice(0, textarea.selectionStart);
    if (/\{\{[^}]*$/.test(before) || /'[^']*$/.test(before.split('\n').pop().replace(/'[^']*'/g, ''))) return '';
    const m = before.match(/[A-Za-z_][A-Za-z0-9_]*$/);
    return m ? m[0] : '';
  }

  function close() {
    suggestions = [];
    list.hidden = true;
    textarea.setAttribute('aria-expanded', 'false');
    textarea.removeAttribute('aria-activedescendant');
  }

  function show() {
    if (!suggestions.length) return close();
    active = Math.min(active, suggestions.length - 1);
    mount(list, suggestions.map(([name, kind], i) => h('li', {id: `${listId}-${i}`, role: 'option', 'aria-selected': String(i === active),
      class: i === active ? 'active' : null, onmousedown: (e) => { e.preventDefault(); accept(i); }},
    h('span', {class: 'name'}, name), h('span', {class: 'muted kind'}, kind))));
    list.hidden = false;
    textarea.setAttribute('aria-expanded', 'true');
    textarea.setAttribute('aria-activedescendant', `${listId}-${active}`);
    const item = list.children[active];
    if (item && item.scrollIntoView) item.scrollIntoView({block: 'nearest'});
  }

  async function complete() {
    const word = currentWord();
    const mine = ++asked;
    if (word.length < 2) return close();
    let found = [];
    const db = databaseId();
    if (db) {
      try {
        found = await get(`database/${db}/autocomplete_suggestions?prefix=${encodeURIComponent(word)}`);
      } catch { found = []; }
    }
    if (mine !== asked || currentWord() !== word) return; // the person typed on meanwhile
    const upper = word.toUpperCase();
    const keywords = COMPLETE_KEYWORDS.filter((k) => k.startsWith(upper) && k !== upper).map((k) => [k, 'keyword']);
    suggestions = [...(found || []).map(([name, kind]) => [name, kind || '']), ...keywords]
      .filter(([name]) => name !== word).slice(0, 50);
    active = 0;
    navigated = false;
    show();
  }

  function accept(i) {
    const word = currentWord();
    const [name] = suggestions[i];
    const start = textarea.selectionStart - word.length;
    textarea.setRangeText(name, start, textarea.selectionStart, 'end');
    close();
    changed();
    textarea.focus();
  }

  function changed() {
    paint();
    if (onInput) onInput(textarea.value);
  }

  textarea.addEventListener('input', () => {
    changed();
    clearTimeout(timer);
    timer = setTimeout(complete, 120);
  });
  textarea.addEventListener('scroll', paint);
  textarea.addEventListener('blur', () => setTimeout(close, 150));
  textarea.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      close();
      if (onRun) onRun();
      return;
    }
    if (list.hidden) {
      if (e.key === ' ' && e.ctrlKey) { e.preventDefault(); complete(); }
      return;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      active = (active + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length;
      navigated = true;
      show();
    } else if (e.key === 'Tab' || (e.key === 'Enter' && navigated)) {
      // Tab takes the highlighted suggestion; Enter only once the person chose one with the arrows (else it is a newline)
      e.preventDefault();
      accept(active);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Enter' || e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End') {
      close();
    }
  });
  paint();

  return {
    element, textarea,
    value: () => textarea.value,
    setValue(text) { textarea.value = text; changed(); },
    /** Inserts text at the caret (replacing any selection) and puts the caret after it. */
    insert(text) {
      textarea.focus();
      textarea.setRangeText(text, textarea.selectionStart, textarea.selectionEnd, 'end');
      changed();
    },
  };
}
