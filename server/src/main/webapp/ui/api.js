// Every call goes to the same public /api that any client uses, relative to <base> (so any context path works).
// The session is the HttpOnly metabase.SESSION cookie set by POST /api/session and /api/setup.
export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export async function api(method, path, body) {
  const init = {method, credentials: 'same-origin', headers: {}};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch('api/' + path, init);
  const text = await response.text();
  let data = text;
  try { data = text ? JSON.parse(text) : null; } catch { /* plain-text error or body */ }
  if (!response.ok || (data && data.status === 'failed')) {
    throw new ApiError(response.status, messageOf(data, response.status), data);
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body ?? {});
export const put = (path, body) => api('PUT', path, body ?? {});
export const del = (path) => api('DELETE', path);

/** Metabase's error shapes: plain text, {errors: {field: message}}, {message}, or a failed query's {error}. */
export function messageOf(data, status) {
  if (typeof data === 'string' && data) return data;
  if (data && data.errors && typeof data.errors === 'object') {
    return Object.entries(data.errors).map(([k, v]) => `${k}: ${v}`).join('; ');
  }
  if (data && (data.error || data.message)) return String(data.error || data.message);
  return status === 403 ? "You don't have permissions to do that." : `Request failed (${status})`;
}

/** Downloads a result (POST with a form body, as Metabase's export buttons do) and returns its size in bytes. */
export async function download(path, form, fileName) {
  const response = await fetch('api/' + path, {method: 'POST', credentials: 'same-origin', body: new URLSearchParams(form)});
  if (!response.ok) throw new ApiError(response.status, messageOf(await response.text(), response.status));
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return blob.size;
}
