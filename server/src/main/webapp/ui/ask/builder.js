import {h, mount, field} from '../dom.js';
import {get} from '../api.js';

// The query builder: a table, an optional join along one of its foreign keys, filters, one metric with breakouts
// (dates grouped by a unit), a sort and a limit, written as the legacy MBQL that POST /api/dataset takes.

export const METRICS = {'': "Raw rows (no summary)", count: 'Count of rows', sum: 'Sum of…', avg: 'Average of…', min: 'Minimum of…',
  max: 'Maximum of…', distinct: 'Distinct values of…'};
export const UNITS = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
const OPERATORS = {'=': 'is', '!=': 'is not', '>': 'greater than', '<': 'less than', '>=': 'at least', '<=': 'at most',
  contains: 'contains', 'starts-with': 'starts with', 'is-null': 'is empty', 'not-null': 'is not empty'};
const UNARY = new Set(['is-null', 'not-null']);
const TEMPORAL = /^type\/(Date|DateTime|DateTimeWith.*|Instant)$/;
const NUMERIC = /^type\/(Integer|BigInteger|Float|Decimal|Number|Currency)$/;

/** A field reference from either MBQL form: legacy ['field', id, opts] or MBQL 5 ['field', opts, id]. */
export function refParts(ref) {
  if (!Array.isArray(ref) || ref[0] !== 'field') return null;
  const [, a, b] = ref;
  return typeof a === 'number' ? {id: a, opts: b || {}} : {id: b, opts: a || {}};
}

/** The builder's state from a saved legacy MBQL query (or its first MBQL 5 stage); unknown shapes give null. */
export function stateFromQuery(query) {
  if (!query) return null;
  const q = query.query || (query.stages && query.stages[0]);
  if (!q || !q['source-table']) return null;
  const join = (q.joins || [])[0];
  const agg = (q.aggregation || [])[0];
  const state = {
    table: q['source-table'],
    join: join ? (refParts(join.condition[1]) || {}).id || null : null,
    filters: (q.filter ? (q.filter[0] === 'and' ? q.filter.slice(1) : [q.filter]) : (q.filters || [])).map((f) => {
      const ref = refParts(f[1]) || {};
      return {field: ref.id, alias: ref.opts['join-alias'] || null, op: f[0], value: f[2] ?? ''};
    }),
    metric: agg ? agg[0] : '',
    metricField: agg && agg[1] ? ((refParts(agg[1]) || {}).id || null) : null,
    metricAlias: agg && agg[1] ? ((refParts(agg[1]) || {opts: {}}).opts['join-alias'] || null) : null,
    breakouts: (q.breakout || []).map((b) => {
      const ref = refParts(b) || {};
      return {field: ref.id, alias: ref.opts['join-alias'] || null, unit: ref.opts['temporal-unit'] || ''};
    }),
    sort: null,
    limit: q.limit || '',
  };
  const order = (q['order-by'] || [])[0];
  if (order) {
    const target = order.length === 2 ? order[1] : order[2];
    const dir = order[0];
    state.sort = {dir, target: Array.isArray(target) && target[0] === 'aggregation' ? 'metric' : String((refParts(target) || {}).id)};
  }
  return state;
}

/** The legacy MBQL for a builder state (pure: the unit test and the page share it). */
export function buildQuery(state, databaseId, tables) {
  const table = tables.get(Number(state.table));
  const q = {'source-table': Number(state.table)};
  const ref = (id, alias, extra) => ['field', Number(id), Object.keys({...(alias ? {'join-alias': alias} : {}), ...extra}).length
    ? {...(alias ? {'join-alias': alias} : {}), ...extra} : null];
  let joinAlias = null;
  if (state.join && table) {
    const fk = table.fields.find((f) => f.id === Number(state.join));
    const target = fk && fieldIndex(tables).get(fk.fk_target_field_id);
    if (target) {
      joinAlias = joinAliasOf(tables.get(target.table_id), fk);
      q.joins = [{'source-table': target.table_id, alias: joinAlias, fields: 'all', strategy: 'left-join',
        condition: ['=', ref(fk.id, null, {}), ref(target.id, joinAlias, {})]}];
    }
  }
  const filters = state.filters.filter((f) => f.field && f.op && (UNARY.has(f.op) || f.value !== '')).map((f) => {
    const fld = fieldIndex(tables).get(Number(f.field));
    const value = fld && NUMERIC.test(fld.base_type) && !isNaN(Number(f.value)) ? Number(f.value) : f.value;
    return UNARY.has(f.op) ? [f.op, ref(f.field, f.alias, {})] : [f.op, ref(f.field, f.alias, {}), value];
  });
  if (filters.length === 1) q.filter = filters[0];
  else if (filters.length > 1) q.filter = ['and', ...filters];
  if (state.metric) {
    q.aggregation = [state.metric === 'count' || !state.metricField ? ['count'] : [state.metric, ref(state.metricField, state.metricAlias, {})]];
  }
  const breakouts = state.breakouts.filter((b) => b.field);
  if (breakouts.length) {
    q.breakout = breakouts.map((b) => ref(b.field, b.alias, b.unit ? {'temporal-unit': b.unit} : {}));
    if (!q.aggregation) q.aggregation = [['count']];
  }
  if (state.sort && state.sort.target) {
    const target = state.sort.target === 'metric' ? ['aggregation', 0]
      : (q.breakout || []).find((b) => String(b[1]) === state.sort.target) || ref(state.sort.target, null, {});
    q['order-by'] = [[state.sort.dir || 'asc', target]];
  }
  if (state.limit) q.limit = Number(state.limit);
  return {database: Number(databaseId), type: 'query', query: q};
}

function joinAliasOf(table, fk) {
  return (table ? table.display_name || table.name : 'Joined') + ' - ' + (fk.display_name || fk.name).replace(/ ID$/i, '');
}

const indexes = new WeakMap();
function fieldIndex(tables) {
  if (!indexes.has(tables)) {
    const map = new Map();
    for (const t of tables.values()) for (const f of t.fields || []) map.set(f.id, f);
    indexes.set(tables, map);
  }
  return indexes.get(tables);
}

/**
 * The builder's form. options: databaseId, initial (a state or null), onChange(). Returns {element, query(), load()}
 * where query() is the dataset_query for the current choices.
 */
export function queryBuilder({databaseId, initial, onChange}) {
  const element = h('div', {class: 'builder'}, h('p', {class: 'muted'}, 'Loading tables…'));
  let tables = new Map();
  const state = initial || {table: null, join: null, filters: [], metric: 'count', metricField: null, breakouts: [], sort: null, limit: ''};

  const changed = () => { render(); if (onChange) onChange(); };

  function columns() {
    const table = tables.get(Number(state.table));
    if (!table) return [];
    const out = table.fields.map((f) => ({field: f, alias: null, label: f.display_name || f.name}));
    if (state.join) {
      const fk = table.fields.find((f) => f.id === Number(state.join));
      const target = fk && fieldIndex(tables).get(fk.fk_target_field_id);
      const joined = target && tables.get(target.table_id);
      if (joined) {
        const alias = joinAliasOf(joined, fk);
        for (const f of joined.fields) out.push({field: f, alias, label: `${alias} → ${f.display_name || f.name}`});
      }
    }
    return out;
  }

  function columnSelect(name, label, current, onPick, {filter, blank = 'Pick a column…'} = {}) {
    const cols = columns().filter((c) => !filter || filter(c.field));
    const key = (c) => (c.alias ? c.alias + '|' : '') + c.field.id;
    const select = h('select', {name, onchange: () => {
      const c = cols.find((x) => key(x) === select.value);
      onPick(c || null);
    }}, h('option', {value: ''}, blank), cols.map((c) => h('option', {value: key(c), selected: key(c) === current}, c.label)));
    return field(label, select);
  }

  function render() {
    const table = tables.get(Number(state.table));
    const tableSelect = h('select', {name: 'builder-table', onchange: () => {
      Object.assign(state, {table: Number(tableSelect.value) || null, join: null, filters: [], metricField: null, breakouts: [], sort: null});
      changed();
    }}, h('option', {value: ''}, 'Pick a table…'),
    [...tables.values()].sort((a, b) => (a.display_name || a.name).localeCompare(b.display_name || b.name))
      .map((t) => h('option', {value: t.id, selected: t.id === Number(state.table)}, t.display_name || t.name)));
    if (!table) {
      mount(element, h('div', {class: 'builder-step'}, h('h3', {}, 'Data'), field('Table', tableSelect)));
      return;
    }
    const fks = table.fields.filter((f) => f.fk_target_field_id && fieldIndex(tables).get(f.fk_target_field_id));
    const joinSelect = h('select', {name: 'builder-join', onchange: () => { state.join = Number(joinSelect.value) || null; changed(); }},
      h('option', {value: ''}, 'No join'),
      fks.map((f) => {
        const target = tables.get(fieldIndex(tables).get(f.fk_target_field_id).table_id);
        return h('option', {value: f.id, selected: f.id === Number(state.join)}, `${target.display_name || target.name} (via ${f.display_name || f.name})`);
      }));

    const filterRows = state.filters.map((f, i) => {
      const op = h('select', {name: `filter-op-${i}`, 'aria-label': `Operator of filter ${i + 1}`, onchange: () => { f.op = op.value; changed(); }},
        Object.entries(OPERATORS).map(([k, label]) => h('option', {value: k, selected: k === f.op}, label)));
      const value = UNARY.has(f.op) ? null : h('input', {name: `filter-value-${i}`, 'aria-label': `Value of filter ${i + 1}`, value: f.value,
        onchange: () => { f.value = value.value; if (onChange) onChange(); }});
      return h('div', {class: 'builder-row'},
        columnSelect(`filter-field-${i}`, `Filter ${i + 1}`, f.field ? (f.alias ? f.alias + '|' : '') + f.field : '',
          (c) => { f.field = c && c.field.id; f.alias = c && c.alias; changed(); }),
        op, value,
        h('button', {type: 'button', class: 'link', 'aria-label': `Remove filter ${i + 1}`, onclick: () => { state.filters.splice(i, 1); changed(); }}, 'Remove'));
    });

    const metric = h('select', {name: 'builder-metric', onchange: () => { state.metric = metric.value; changed(); }},
      Object.entries(METRICS).map(([k, label]) => h('option', {value: k, selected: k === (state.metric || '')}, label)));
    const needsField = state.metric && state.metric !== 'count';
    const metricField = needsField ? columnSelect('builder-metric-field', 'Of column',
      state.metricField ? (state.metricAlias ? state.metricAlias + '|' : '') + state.metricField : '',
      (c) => { state.metricField = c && c.field.id; state.metricAlias = c && c.alias; changed(); },
      {filter: (f) => state.metric === 'distinct' || state.metric === 'min' || state.metric === 'max' || NUMERIC.test(f.base_type)}) : null;

    const breakoutRows = state.breakouts.map((b, i) => {
      const fld = fieldIndex(tables).get(Number(b.field));
      const unit = fld && TEMPORAL.test(fld.base_type) ? h('select', {name: `breakout-unit-${i}`, 'aria-label': `Group dates of breakout ${i + 1} by`,
        onchange: () => { b.unit = unit.value; changed(); }},
      UNITS.map((u) => h('option', {value: u, selected: u === b.unit}, 'by ' + u))) : null;
      return h('div', {class: 'builder-row'},
        columnSelect(`breakout-field-${i}`, `Group by ${i + 1}`, b.field ? (b.alias ? b.alias + '|' : '') + b.field : '', (c) => {
          b.field = c && c.field.id; b.alias = c && c.alias;
          b.unit = c && TEMPORAL.test(c.field.base_type) ? (b.unit || 'month') : '';
          changed();
        }), unit,
        h('button', {type: 'button', class: 'link', 'aria-label': `Remove group ${i + 1}`, onclick: () => { state.breakouts.splice(i, 1); changed(); }}, 'Remove'));
    });

    const sortTargets = [['', 'No sort'], ...(state.metric || state.breakouts.length ? [['metric', 'the metric']] : []),
      ...state.breakouts.filter((b) => b.field).map((b) => [String(b.field), (fieldIndex(tables).get(Number(b.field)) || {}).display_name || String(b.field)])];
    const sortSelect = h('select', {name: 'builder-sort', onchange: () => {
      state.sort = sortSelect.value ? {target: sortSelect.value, dir: (state.sort && state.sort.dir) || 'asc'} : null; changed();
    }}, sortTargets.map(([v, label]) => h('option', {value: v, selected: v === ((state.sort && state.sort.target) || '')}, label)));
    const dirSelect = h('select', {name: 'builder-sort-dir', 'aria-label': 'Sort direction', disabled: !state.sort,
      onchange: () => { state.sort.dir = dirSelect.value; changed(); }},
    h('option', {value: 'asc', selected: !state.sort || state.sort.dir === 'asc'}, 'ascending'),
    h('option', {value: 'desc', selected: state.sort && state.sort.dir === 'desc'}, 'descending'));
    const limit = h('input', {name: 'builder-limit', type: 'number', min: '1', value: state.limit, placeholder: 'all rows',
      onchange: () => { state.limit = limit.value; if (onChange) onChange(); }});

    mount(element,
      h('div', {class: 'builder-step'}, h('h3', {}, 'Data'), h('div', {class: 'row'}, field('Table', tableSelect), field('Join along a foreign key', joinSelect))),
      h('div', {class: 'builder-step'}, h('h3', {}, 'Filter'), filterRows,
        h('button', {type: 'button', onclick: () => { state.filters.push({field: null, alias: null, op: '=', value: ''}); changed(); }}, 'Add a filter')),
      h('div', {class: 'builder-step'}, h('h3', {}, 'Summarize'), h('div', {class: 'row'}, field('Metric', metric), metricField), breakoutRows,
        h('button', {type: 'button', onclick: () => { state.breakouts.push({field: null, alias: null, unit: ''}); changed(); }}, 'Add a grouping')),
      h('div', {class: 'builder-step'}, h('h3', {}, 'Sort and limit'),
        h('div', {class: 'row'}, field('Sort by', sortSelect), field('Direction', dirSelect), field('Row limit', limit))));
  }

  async function load() {
    const meta = await get(`database/${databaseId()}/metadata`);
    tables = new Map((meta.tables || []).map((t) => [t.id, t]));
    if (state.table && !tables.has(Number(state.table))) state.table = null;
    render();
  }

  return {element, load, state, query: () => (state.table ? buildQuery(state, databaseId(), tables) : null)};
}
