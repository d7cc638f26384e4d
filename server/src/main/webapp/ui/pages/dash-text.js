import {h} from '../dom.js';

// Text cards: a small markdown-ish subset (headings, lists, paragraphs, **bold**, *italic*, `code`, [links](https://…)),
// built as DOM nodes from text. Nothing here ever goes through innerHTML, so "<img onerror=…>" stays visible text.

const INLINE = /(\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/g;

// The link as the browser will resolve it (which drops leading control characters and whitespace, so testing the text
// itself lets "\x01javascript:" through): only http(s) and mailto links are kept.
function safeHref(href) {
  let url;
  try {
    url = new URL(href, document.baseURI);
  } catch {
    return null;
  }
  return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? href : null;
}

function inline(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[2] != null) out.push(h('strong', {}, m[2]));
    else if (m[3] != null) out.push(h('em', {}, m[3]));
    else if (m[4] != null) out.push(h('code', {}, m[4]));
    else {
      const href = safeHref(m[6]);
      out.push(href ? h('a', {href, rel: 'noopener noreferrer', target: /^https?:/i.test(href) ? '_blank' : null}, m[5]) : m[0]);
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** The text as a fragment of safe nodes. */
export function renderText(text) {
  const root = h('div', {class: 'textcard'});
  let list = null;
  let para = [];
  const flush = () => {
    if (para.length) root.append(h('p', {}, inline(para.join(' '))));
    para = [];
  };
  for (const raw of String(text || '').split(/\r?\n/)) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,3})\s+(.*)$/);
    const item = line.match(/^\s*[-*]\s+(.*)$/);
    if (item) {
      flush();
      if (!list) root.append(list = h('ul', {}));
      list.append(h('li', {}, inline(item[1])));
      continue;
    }
    list = null;
    if (heading) {
      flush();
      root.append(h('h' + (heading[1].length + 2), {}, inline(heading[2])));
    } else if (!line.trim()) {
      flush();
    } else {
      para.push(line.trim());
    }
  }
  flush();
  return root;
}
