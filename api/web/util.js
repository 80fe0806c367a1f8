// Small DOM and HTTP helpers shared by every page of the client.

/** h('div', {class: 'x', onclick: fn}, child, ...) builds an element; strings become text nodes. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'style') el.style.cssText = value;  // through the CSSOM: the page's policy forbids style attributes
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An error the API answered with: its message is the problem's `detail`. */
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.body = body;
  }
}

/** Call the public REST API (same origin). Returns {data, etag}; throws ApiError with the API's detail. */
export async function api(method, path, { token, body, headers, signal } = {}) {
  const hdrs = { Accept: 'application/json', ...(headers || {}) };
  if (token) hdrs.Authorization = `Bearer ${token}`;
  if (body !== undefined) hdrs['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method, headers: hdrs, signal, cache: 'no-store',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return { data, etag: response.headers.get('ETag'), text };
}

export function newKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

export function title(text) {
  return String(text).replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

export function toast(message) {
  const el = document.getElementById('toast');
  el.textContent = message;
  el.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove('show'), 5000);
}

/** A seat's display name. */
export function seatName(seat) {
  if (!seat) return '?';
  if (seat.kind === 'bot') return seat.name || `Bot (${seat.level || 'medium'})`;
  return seat.name || `Player ${seat.seat + 1}`;
}

/** The seat token for a game: from the URL fragment (#seat=...) first, then localStorage. A link's token is kept
 * for later visits only if this browser keeps none for the game, or the server refuses the one it keeps (its seat
 * tokens were reissued): a link someone else made must not replace the seat this browser holds. */
export async function seatToken(gameId) {
  const key = `tradewinds:seat:${gameId}`;
  const fragment = new URLSearchParams(location.hash.slice(1));
  const fromUrl = fragment.get('seat');
  if (fromUrl) {
    // the token stays in this browser only: drop it from the address bar and the history entry
    history.replaceState(null, '', location.pathname + location.search);
    const kept = localStorage.getItem(key);
    if (kept === null || kept === fromUrl || !(await accepted(gameId, kept))) localStorage.setItem(key, fromUrl);
    return fromUrl;
  }
  if (fragment.get('watch') !== null) return null;
  return localStorage.getItem(key);
}

/** Whether the server still takes ``token`` for this game (anything but a 401 leaves the question open: yes). */
async function accepted(gameId, token) {
  try {
    await api('GET', `/games/${gameId}`, { token });
    return true;
  } catch (error) {
    return !(error instanceof ApiError && error.status === 401);
  }
}

export function rememberSeat(gameId, token) {
  localStorage.setItem(`tradewinds:seat:${gameId}`, token);
}

/** The invite links the creator of a game was given ([{seat, url}]), kept in the creator's browser so that its
 * table can show them again until the game ends. */
export function rememberInvites(gameId, invites) {
  localStorage.setItem(`tradewinds:invites:${gameId}`, JSON.stringify(invites));
}

export function invitesOf(gameId) {
  const kept = stored(`tradewinds:invites:${gameId}`);
  return Array.isArray(kept) ? kept : [];
}

/** What this browser keeps under ``key``, parsed, or null (nothing kept, or not JSON: edited by hand). */
function stored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch {
    return null;
  }
}

/** How this browser set a game up (the creation request and which seat is its own), kept to play it again. */
export function rememberSetup(gameId, setup) {
  localStorage.setItem(`tradewinds:setup:${gameId}`, JSON.stringify(setup));
}

export function setupOf(gameId) {
  const kept = stored(`tradewinds:setup:${gameId}`);
  const seats = kept && kept.body && kept.body.seats;
  const whole = Array.isArray(seats) && seats.every((s) => s && typeof s === 'object')
    && Number.isInteger(kept.mine) && kept.mine >= 0 && kept.mine < seats.length && seats[kept.mine].kind === 'human';
  return whole ? kept : null;  // anything else (an older page's, or edited by hand) is not played again
}

/** A board square's code ("r1c0") as a player reads it ("row 2, column 1"), or null for any other text. */
export function rowColumn(cell) {
  const square = /^r(\d+)c(\d+)$/.exec(cell || '');
  return square ? `row ${Number(square[1]) + 1}, column ${Number(square[2]) + 1}` : null;
}

const typeCache = new Map();
/** The static description of a game type (catalogue, commands), fetched once. */
export async function gameType(name) {
  if (!typeCache.has(name)) typeCache.set(name, api('GET', `/game-types/${encodeURIComponent(name)}`).then((r) => r.data));
  return typeCache.get(name);
}

/** A small definition list: [[term, value], ...]. */
export function facts(pairs, label) {
  return h('dl', { class: 'facts', 'aria-label': label }, pairs.filter(Boolean).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/** A compact "name: n" chip list of a {name: count} object, skipping zeros unless keepZero; ``order`` lists the
 * names in the order the game has them (a JSON body's keys arrive sorted by name), else the object's order. */
export function counts(obj, keepZero = false, order = null) {
  const all = order ? order.filter((k) => obj && k in obj).map((k) => [k, obj[k]]) : Object.entries(obj || {});
  const entries = all.filter(([, v]) => keepZero || v);
  if (!entries.length) return h('span', { class: 'muted' }, 'none');
  return h('span', { class: 'chips' }, entries.map(([k, v]) => h('span', { class: `chip c-${k}` }, `${title(k)} ${v}`)));
}
