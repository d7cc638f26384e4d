import {h, mount, formatValue} from './dom.js';
import {askVisualization} from './ask/results.js';

const NUMERIC = /^type\/(Integer|BigInteger|Float|Decimal|Number|Currency)$/;
const TEMPORAL = /^type\/(Date|DateTime|DateTimeWithTZ|DateTimeWithLocalTZ|DateTimeWithZoneOffset|DateTimeWithZoneID|Time|Instant)$/;

export const isNumeric = (col) => NUMERIC.test(col.base_type || '') && !/PK|FK/.test(col.semantic_type || '');
export const isTemporal = (col) => TEMPORAL.test(col.base_type || '');

/**
 * Metabase-like defaults: one number → scalar; a date and a number → line; a category and a number → bar (pie for a
 * handful of rows when asked); anything else → table.
 */
export function defaultDisplay(data) {
  const cols = data.cols || [];
  const rows = data.rows || [];
  if (rows.length === 1 && cols.length === 1 && isNumeric(cols[0])) return 'scalar';
  if (cols.length >= 2 && cols.slice(1).some(isNumeric) && rows.length > 1) {
    if (isTemporal(cols[0])) return 'line';
    if (!isNumeric(cols[0])) return 'bar';
  }
  return 'table';
}

/** The displays that make sense for this result (the table always does). */
export function possibleDisplays(data) {
  const cols = data.cols || [];
  const out = ['table'];
  if (cols.length >= 2 && cols.slice(1).some(isNumeric)) out.push('bar', 'line', 'pie');
  if (cols.some(isNumeric)) out.push('scalar');
  return out;
}

/** The rows as a table; a column header sorts by that column (again: the other way), in the browser. */
export function resultTable(data, {maxRows = 500} = {}) {
  const cols = data.cols || [];
  const all = data.rows || [];
  let sort = null;
  const tbody = h('tbody', {});
  const headers = cols.map((c, i) => h('th', {scope: 'col', class: isNumeric(c) ? 'num' : null, 'aria-sort': 'none'},
    h('button', {type: 'button', class: 'sort', onclick: () => {
      sort = sort && sort.index === i && sort.dir === 1 ? {index: i, dir: -1} : {index: i, dir: 1};
      headers.forEach((th, k) => th.setAttribute('aria-sort', k === i ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'));
      fill();
    }}, c.display_name || c.name)));
  function fill() {
    let rows = all;
    if (sort) {
      const {index, dir} = sort;
      rows = [...all].sort((a, b) => (a[index] == null) - (b[index] == null) || (a[index] < b[index] ? -dir : a[index] > b[index] ? dir : 0));
    }
    mount(tbody, rows.slice(0, maxRows).map((r) => h('tr', {}, r.map((v, i) => h('td', {class: isNumeric(cols[i]) ? 'num' : null}, formatValue(v))))));
  }
  fill();
  return h('div', {class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Result rows'},
    h('table', {class: 'results'}, h('thead', {}, h('tr', {}, headers)), tbody),
    all.length > maxRows ? h('p', {class: 'muted'}, `Showing ${maxRows} of ${all.length} rows.`) : null);
}

const PALETTE = ['#2f6f8f', '#e07a3f', '#5b9a5b', '#b5487a', '#8d6cc0', '#c9a227', '#4aa3b8', '#9c5b3b'];

/** Renders data as the given display into a fresh element; charts use Chart.js (the WebJar's UMD build). */
export function visualization(data, display, settings) {
  // area, row and combo charts (and a card's saved axes) are drawn by the question editor's renderer
  if (['area', 'row', 'combo'].includes(display) || (settings && settings['graph.metrics'])) return askVisualization(data, display, settings);
  const cols = data.cols || [];
  const rows = data.rows || [];
  if (display === 'table' || !rows.length) return resultTable(data);
  if (display === 'scalar') {
    const index = Math.max(0, cols.findIndex(isNumeric));
    return h('div', {class: 'scalar', role: 'figure', 'aria-label': cols[index] ? (cols[index].display_name || cols[index].name) : 'Value'},
      h('span', {class: 'value'}, formatValue(rows[0][index])),
      h('span', {class: 'muted'}, cols[index] ? (cols[index].display_name || cols[index].name) : ''));
  }
  const metrics = cols.map((c, i) => [c, i]).filter(([c, i]) => i > 0 && isNumeric(c));
  const labels = rows.map((r) => formatValue(r[0]));
  const canvas = h('canvas', {role: 'img', 'aria-label': `${display} chart of ${metrics.map(([c]) => c.display_name || c.name).join(', ')} by ${cols[0].display_name || cols[0].name}`});
  const box = h('div', {class: 'chart ' + display}, canvas);
  if (!window.Chart) return h('div', {}, h('p', {class: 'error'}, 'The chart library did not load.'), resultTable(data));
  const pie = display === 'pie';
  const datasets = (pie ? metrics.slice(0, 1) : metrics).map(([c, i], n) => ({
    label: c.display_name || c.name,
    data: rows.map((r) => r[i]),
    backgroundColor: pie ? rows.map((_, k) => PALETTE[k % PALETTE.length]) : PALETTE[n % PALETTE.length],
    borderColor: pie ? '#fff' : PALETTE[n % PALETTE.length],
    tension: 0.2,
  }));
  // Chart.js needs the canvas in the document to size it: build it on the next frame.
  requestAnimationFrame(() => {
    box.chart = new window.Chart(canvas, {
      type: pie ? 'pie' : display,
      data: {labels, datasets},
      options: {responsive: true, maintainAspectRatio: false, animation: false,
        plugins: {legend: {display: pie || datasets.length > 1}},
        scales: pie ? {} : {y: {beginAtZero: true}}},
    });
    box.dataset.rendered = 'true';
  });
  return box;
}
