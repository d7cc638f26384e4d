import {h} from '../dom.js';

const ICONS = {card: '▦', dataset: '◈', metric: '∑', dashboard: '▤', collection: '▣', table: '☷', database: '⛁', segment: '◔', snippet: '✎'};
const LABELS = {card: 'Question', dataset: 'Model', metric: 'Metric', dashboard: 'Dashboard', collection: 'Collection', table: 'Table', database: 'Database', segment: 'Segment', snippet: 'Snippet'};

/** Where an item (from collection items or search) opens in this interface; null when it has no page here. */
export function hrefOf(item) {
  switch (item.model) {
    case 'card': case 'dataset': case 'metric': return 'question/' + item.id;
    case 'dashboard': return 'dashboard/' + item.id;
    case 'collection': return 'collection/' + item.id;
    case 'table': return 'table/' + item.id;
    case 'database': return 'browse/' + item.id;
    default: return null;
  }
}

export function itemList(items, empty) {
  if (!items.length) return h('p', {class: 'muted'}, empty || 'Nothing here yet.');
  return h('ul', {class: 'items'}, items.map((item) => {
    const href = hrefOf(item);
    return h('li', {},
      h('span', {class: 'icon', 'aria-hidden': 'true'}, ICONS[item.model] || '•'),
      href ? h('a', {href}, item.name) : h('span', {}, item.name),
      h('span', {class: 'muted kind'}, LABELS[item.model] || item.model),
      item.description ? h('span', {class: 'muted desc'}, item.description) : null);
  }));
}
