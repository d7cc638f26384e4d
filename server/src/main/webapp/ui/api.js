// Every call goes to the same public /api that any client uses, relative to <base> (so any context path works).
// The session is the HttpOnly metabase.SESSION cookie set by POST /api/session and /api/setup. The browser sends the
// page's Origin with every write, which is how Quarry tells these calls from another site's (docs/security-web.md).
// While the cookie is SameSite=None, Quarry also hands out an anti-CSRF token in a response header (at sign-in and on
// every answer to this session); it is kept here and sent back with every call.
const ANTI_CSRF_HEADER = 'X-Metabase-Anti-CSRF-Token';
// per deployment: two under different context paths of one origin share the storage, not the session
const ANTI_CSRF_KEY = 'quarry.anti-csrf-token:' + new URL('.', document.baseURI).pathname;

function antiCsrfToken() {
  try { return localStorage.getItem(ANTI_CSRF_KEY); } catch { return null; }
}

/** Keeps the token an answer carries (and forgets it when the session ends). */
function keepAntiCsrfToken(response, method, path) {
  const token = response.headers.get(ANTI_CSRF_HEADER);
  try {
    if (token) localStorage.setItem(ANTI_CSRF_KEY, token);
    else if (method === 'DELETE' && path === 'session' && response.ok) localStorage.removeItem(ANTI_CSRF_KEY);
  } catch { /* storage unavailable: writes then fail with a 403 while the cookie is SameSite=None */ }
}

/** Adds the anti-CSRF token, when Quarry handed one out, to a fetch's headers (for calls made without {@link api}). */
export function withAntiCsrfToken(headers) {
  const token = antiCsrfToken();
  if (token) headers[ANTI_CSRF_HEADER] = token;
  return headers;
}

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export async function api(method, path, body) {
  const sent = antiCsrfToken();
  const init = {method, credentials: 'same-origin', headers: withAntiCsrfToken({})};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response = await fetch('api/' + path, init);
  keepAntiCsrfToken(response, method, path);
  if (response.status === 403 && antiCsrfToken() !== sent) {
    // refused for want of the token this page did not know yet (the cookie became SameSite=None): the refusal
    // handed it out, so send the call again with it
    response = await fetch('api/' + path, {...init, headers: withAntiCsrfToken({...init.headers})});
    keepAntiCsrfToken(response, method, path);
  }
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
  const response = await fetch('api/' + path, {method: 'POST', credentials: 'same-origin', headers: withAntiCsrfToken({}),
    body: new URLSearchParams(form)});
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
