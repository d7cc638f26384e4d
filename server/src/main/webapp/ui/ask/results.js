import {h, mount} from '../dom.js';
import {isNumeric, isTemporal} from '../viz.js';

// Results of a question: a paged, sortable table with formatted cells, and charts (bar, line, area, pie, scalar, row,
// combo) on Chart.js with defaults taken from the columns; the choices live in the card's display and
// visualization_settings ('graph.dimensions', 'graph.metrics').

export const DISPLAY_NAMES = {table: 'Table', bar: 'Bar', line: 'Line', area: 'Area', row: 'Row', combo: 'Combo', pie: 'Pie', scalar: 'Number'};
const PALETTE = ['#2f6f8f', '#e07a3f', '#5b9a5b', '#b5487a', '#8d6cc0', '#c9a227', '#4aa3b8', '#9c5b3b'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const PAGE = 50;

const label = (c) => (c && (c.display_name || c.name)) || '';

/** A cell as people read it: grouped numbers, dates by the column's time grouping (read from the text, no time-zone shift). */
export function formatCell(value, col) {
  if (value == null) return '';
  if (typeof value === 'number') {
    if (col && /PK|FK/.test(col.semantic_type || '')) return String(value);
    return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', {maximumFractionDigits: 2});
  }
  const m = typeof value === 'string' && value.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/);
  if (m && (!col || isTemporal(col) || col.unit)) {
    const [, y, mo, d, hh, mi] = m;
    const unit = col && col.unit;
    const month = MONTHS[Number(mo) - 1];
    if (unit === 'year') return y;
    if (unit === 'quarter') return `Q${Math.floor((Number(mo) - 1) / 3) + 1} ${y}`;
    if (unit === 'month') return `${month} ${y}`;
    if (unit === 'week') return `Week of ${month.slice(0, 3)} ${Number(d)}, ${y}`;
    const date = `${month.slice(0, 3)} ${Number(d)}, ${y}`;
    if (unit === 'day' || !hh || (hh === '00' && mi === '00' && unit !== 'hour' && unit !== 'minute')) return date;
    return `${date}, ${hh}:${mi}`;
  }
  return String(value);
}

/** Which displays make sense for these columns (the table always does). */
export function possibleDisplays(data) {
  const cols = data.cols || [];
  const out = ['table'];
  if (cols.length >= 2 && cols.some(isNumeric)) out.push('bar', 'line', 'area', 'row', 'combo', 'pie');
  if (cols.some(isNumeric)) out.push('scalar');
  return out;
}

/** Metabase-like: one number → scalar; a date and numbers → line; a category and numbers → bar; else a table. */
export function defaultDisplay(data) {
  const cols = data.cols || [];
  const rows = data.rows || [];
  if (rows.length === 1 && cols.length === 1 && isNumeric(cols[0])) return 'scalar';
  // raw rows (many columns, nothing summarized) read best as a table
  if (cols.length > 3 && !cols.some((c) => c.source === 'aggregation')) return 'table';
  const {dimensions, metrics} = defaultAxes(data);
  if (dimensions.length && metrics.length && rows.length > 1) return isTemporal(cols[dimensions[0]]) || cols[dimensions[0]].unit ? 'line' : 'bar';
  return 'table';
}

/** Column indexes for the x axis (one or two) and the metrics: the leading non-numbers, then the numbers. */
function defaultAxes(data) {
  const cols = data.cols || [];
  const dimensions = [];
  const metrics = [];
  cols.forEach((c, i) => {
    if (isNumeric(c) && (dimensions.length || i > 0) && c.source !== 'breakout') metrics.push(i);
    else if (!metrics.length && dimensions.length < 2) dimensions.push(i);
  });
  const temporal = (i) => isTemporal(cols[i]) || cols[i].unit;
  if (dimensions.length === 2 && temporal(dimensions[1]) && !temporal(dimensions[0])) dimensions.reverse();
  return {dimensions, metrics};
}

/** The axes for a result, honouring saved 'graph.dimensions'/'graph.metrics' names when they still exist. */
export function chartAxes(data, settings = {}) {
  const cols = data.cols || [];
  const byName = (names) => (names || []).map((n) => cols.findIndex((c) => c.name === n)).filter((i) => i >= 0);
  const fallback = defaultAxes(data);
  const dimensions = byName(settings['graph.dimensions']);
  const metrics = byName(settings['graph.metrics']).filter((i) => isNumeric(cols[i]));
  return {dimensions: dimensions.length ? dimensions : fallback.dimensions.length ? fallback.dimensions : [0],
    metrics: metrics.length ? metrics : fallback.metrics.length ? fallback.metrics : cols.map((c, i) => i).filter((i) => isNumeric(cols[i]))};
}

/** The rows as a table with client-side paging and click-to-sort headers. */
export function pagedTable(data, {pageSize = PAGE} = {}) {
  const cols = data.cols || [];
  const all = data.rows || [];
  let sort = null;
  let page = 0;
  const tbody = h('tbody', {});
  const pager = h('div', {class: 'pager', role: 'group', 'aria-label': 'Pages'});
  const headers = cols.map((c, i) => h('th', {scope: 'col', class: isNumeric(c) ? 'num' : null, 'aria-sort': 'none'},
    h('button', {type: 'button', class: 'sort', onclick: () => {
      sort = sort && sort.index === i && sort.dir === 1 ? {index: i, dir: -1} : {index: i, dir: 1};
      headers.forEach((th, k) => th.setAttribute('aria-sort', k === i ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'));
      page = 0;
      fill();
    }}, label(c))));
  function fill() {
    let rows = all;
    if (sort) {
      const {index, dir} = sort;
      rows = [...all].sort((a, b) => (a[index] == null) - (b[index] == null) || (a[index] < b[index] ? -dir : a[index] > b[index] ? dir : 0));
    }
    const pages = Math.max(1, Math.ceil(rows.length / pageSize));
    page = Math.min(page, pages - 1);
    const from = page * pageSize;
    mount(tbody, rows.slice(from, from + pageSize).map((r) => h('tr', {},
      r.map((v, i) => h('td', {class: isNumeric(cols[i]) ? 'num' : null}, formatCell(v, cols[i]))))));
    mount(pager, pages > 1 ? [
      h('button', {type: 'button', disabled: page === 0, onclick: () => { page--; fill(); }}, '← Previous'),
      h('span', {class: 'muted', 'aria-live': 'polite'}, `Rows ${from + 1}–${Math.min(from + pageSize, rows.length)} of ${rows.length}`),
      h('button', {type: 'button', disabled: page >= pages - 1, onclick: () => { page++; fill(); }}, 'Next →'),
    ] : h('span', {class: 'muted'}, `${rows.length} row${rows.length === 1 ? '' : 's'}`));
  }
  fill();
  return h('div', {class: 'paged'},
    h('div', {class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Result rows'},
      h('table', {class: 'results'}, h('thead', {}, h('tr', {}, headers)), tbody)), pager);
}

/** Renders a result as `display`; charts get class "chart <display>" and data-rendered once Chart.js drew them. */
export function askVisualization(data, display, settings = {}) {
  const cols = data.cols || [];
  const rows = data.rows || [];
  if (display === 'table' || !rows.length || !cols.length) return pagedTable(data);
  const {dimensions, metrics} = chartAxes(data, settings);
  if (display === 'scalar') {
    const index = metrics[0] ?? Math.max(0, cols.findIndex(isNumeric));
    return h('div', {class: 'scalar', role: 'figure', 'aria-label': label(cols[index]) || 'Value'},
      h('span', {class: 'value'}, formatCell(rows[0][index], cols[index])), h('span', {class: 'muted'}, label(cols[index])));
  }
  if (!metrics.length) return pagedTable(data);
  if (!window.Chart) return h('div', {}, h('p', {class: 'error'}, 'The chart library did not load.'), pagedTable(data));
  const x = dimensions[0];
  const series = display !== 'pie' && dimensions.length > 1 ? dimensions[1] : null;
  // the x values in order: dates and numbers sorted (rows grouped by a first column come back out of x order)
  let keys = [...new Set(rows.map((r) => r[x]))];
  if (isTemporal(cols[x]) || cols[x].unit || isNumeric(cols[x])) keys = keys.sort((a, b) => (a == null) - (b == null) || (a < b ? -1 : a > b ? 1 : 0));
  const seen = new Map(keys.map((k, i) => [String(k), i]));
  const labels = keys.map((k) => formatCell(k, cols[x]));
  let datasets;
  if (series != null) {
    // two groupings and one metric: one series per value of the second grouping
    const groups = new Map();
    for (const r of rows) {
      const g = formatCell(r[series], cols[series]) || '(empty)';
      if (!groups.has(g)) groups.set(g, new Array(labels.length).fill(null));
      groups.get(g)[seen.get(String(r[x]))] = r[metrics[0]];
    }
    datasets = [...groups.entries()].slice(0, 20).map(([g, values]) => ({label: g, data: values}));
  } else {
    datasets = metrics.map((i) => {
      const values = new Array(labels.length).fill(null);
      for (const r of rows) values[seen.get(String(r[x]))] = r[i];
      return {label: label(cols[i]), data: values};
    });
  }
  const pie = display === 'pie';
  if (pie) datasets = datasets.slice(0, 1);
  datasets.forEach((d, n) => {
    const color = PALETTE[n % PALETTE.length];
    Object.assign(d, {
      backgroundColor: pie ? labels.map((_, k) => PALETTE[k % PALETTE.length]) : display === 'area' ? color + '55' : color,
      borderColor: pie ? '#fff' : color, tension: 0.2, fill: display === 'area' ? (n === 0 ? 'origin' : '-1') : false,
      pointRadius: labels.length > 60 ? 0 : 3,
    });
    if (display === 'combo') { d.type = n === 0 ? 'bar' : 'line'; d.order = n === 0 ? 2 : 1; }
  });
  const type = pie ? 'pie' : display === 'line' || display === 'area' ? 'line' : 'bar';
  const describe = `${DISPLAY_NAMES[display] || display} chart of ${datasets.map((d) => d.label).join(', ')} by ${label(cols[x])}`;
  const canvas = h('canvas', {role: 'img', 'aria-label': describe});
  const box = h('div', {class: 'chart ' + display}, canvas);
  requestAnimationFrame(() => {
    const horizontal = display === 'row';
    box.chart = new window.Chart(canvas, {
      type,
      data: {labels, datasets},
      options: {responsive: true, maintainAspectRatio: false, animation: false, indexAxis: horizontal ? 'y' : 'x',
        plugins: {legend: {display: pie || datasets.length > 1}},
        scales: pie ? {} : {
          [horizontal ? 'x' : 'y']: {beginAtZero: true, stacked: display === 'area' && datasets.length > 1,
            title: {display: series == null && metrics.length === 1, text: label(cols[metrics[0]])}},
          [horizontal ? 'y' : 'x']: {title: {display: true, text: label(cols[x])}}}},
    });
    box.dataset.rendered = 'true';
  });
  return box;
}

/** The x/y pickers under the display chooser; onPick(settings) with the new 'graph.*' settings. */
export function axisPickers(data, display, settings, onPick) {
  if (display === 'table' || display === 'scalar') return null;
  const cols = data.cols || [];
  const {dimensions, metrics} = chartAxes(data, settings);
  const xSelect = h('select', {name: 'graph-dimension', onchange: () => onPick({...settings, 'graph.dimensions': [xSelect.value, ...dimensions.slice(1).map((i) => cols[i].name)]})},
    cols.map((c) => h('option', {value: c.name, selected: c === cols[dimensions[0]]}, label(c))));
  const ySelect = h('select', {name: 'graph-metric', onchange: () => onPick({...settings, 'graph.metrics': [ySelect.value]})},
    cols.filter(isNumeric).map((c) => h('option', {value: c.name, selected: c === cols[metrics[0]]}, label(c))));
  const xId = 'graph-x-' + Math.random().toString(36).slice(2);
  const yId = xId.replace('x', 'y');
  xSelect.id = xId;
  ySelect.id = yId;
  return h('div', {class: 'axes'}, h('label', {for: xId}, 'X axis'), xSelect, h('label', {for: yId}, 'Y axis'), ySelect);
}
