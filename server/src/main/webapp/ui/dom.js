// A tiny DOM builder: h('button', {onclick: f, class: 'primary'}, 'Run'). Children may be strings, nodes, arrays or null.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'value' || key === 'checked' || key === 'selected') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let ids = 0;
/** A labelled form field: the label's for= points at the control, so screen readers and clicks find it. */
export function field(label, control, hint) {
  if (!control.id) control.id = 'f' + (++ids);
  return h('div', {class: 'field'}, h('label', {for: control.id}, label), control, hint ? h('small', {class: 'muted'}, hint) : null);
}

export function errorBox(message) {
  return h('p', {class: 'error', role: 'alert'}, message);
}

export function formatValue(value) {
  if (value == null) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toLocaleString() : value.toLocaleString(undefined, {maximumFractionDigits: 2});
  return String(value);
}
