// Replay: step or scrub a game version by version (GET /games/{id}/states/{v}) with the event log beside;
// download the signed export of a game that is over and show what POST /verify says about it.
import { h, fill, api, seatToken, gameType } from './util.js';
import { words, namer } from './events.js';
import { loadBoard, logItem } from './play.js';

export async function showReplay(main, gameId) {
  const token = await seatToken(gameId);
  const { data: game } = await api('GET', `/games/${gameId}`, { token });
  const type = await gameType(game.game_type);
  const board = await loadBoard(game.game_type);
  document.title = `Tradewinds — replay of ${type.title}`;
  const log = [];
  let next = 0;
  while (next !== null) {
    const { data } = await api('GET', `/games/${gameId}/events?after=${next}&limit=1000`, { token });
    log.push(...data.events);
    next = data.next_after;
  }
  const last = game.version;
  const slider = h('input', { type: 'range', id: 'scrub', min: 1, max: last, value: last, 'aria-label': 'Version' });
  const position = h('output', { for: 'scrub', class: 'position', 'aria-live': 'polite' });
  const boardEl = h('section', { class: 'board', 'aria-label': 'Board at this version' });
  const logEl = h('ol', { class: 'log', 'aria-label': 'Event log' });
  const verifyEl = h('div', { class: 'verify', 'aria-live': 'polite' });
  const cache = new Map();
  let shown = 0;
  let pending = null;

  const step = (delta) => () => { slider.value = String(Math.min(last, Math.max(1, Number(slider.value) + delta))); show(); };
  async function show() {
    const v = Number(slider.value);
    pending = v;
    if (!cache.has(v)) cache.set(v, api('GET', `/games/${gameId}/states/${v}`, { token }).then((r) => r.data));
    const past = await cache.get(v);
    if (pending !== v) return;
    shown = v;
    position.textContent = `Version ${v} of ${last}`;
    const ctx = { catalogue: type.catalogue, codes: type.catalogue.codes || {}, name: namer(type), type, seats: game.seats, me: game.your_seat, game, choices: [], play: () => {}, narrow: () => {} };
    try {
      fill(boardEl, board.render(past.state, ctx));
    } catch (err) {
      fill(boardEl, h('p', { class: 'error' }, `The board could not be drawn: ${err.message}`));
    }
    for (const li of logEl.children) li.classList.toggle('current', Number(li.dataset.version) === shown);
    for (const li of logEl.children) li.classList.toggle('future', Number(li.dataset.version) > shown);
    const current = logEl.querySelector('li.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
  }
  slider.addEventListener('input', show);

  const w = words(type, game.seats);
  fill(logEl, log.map((e) => logItem(e, board, w, { 'data-version': e.version },
    (parts) => h('button', { type: 'button', class: 'linklike', onclick: () => { slider.value = String(e.version); show(); } }, parts))));

  const exportPart = game.status !== 'active'  // finished, aborted or abandoned: over, its export open to all
    ? h('button', { type: 'button', class: 'button', id: 'export', onclick: () => exportAndVerify(gameId, verifyEl) }, 'Download the export and verify it')
    : h('p', { class: 'muted' }, 'The export and its verification are available once the game is over.');

  fill(main,
    h('h1', {}, `Replay: ${type.title}`, h('span', { class: 'muted' }, ` · ${game.status}`)),
    h('p', {}, h('a', { class: 'button secondary', href: `/?game=${gameId}` }, 'Back to the table')),
    h('div', { class: 'scrubber panel' },
      h('button', { type: 'button', class: 'button secondary', onclick: () => { slider.value = '1'; show(); }, 'aria-label': 'First version' }, 'First'),
      h('button', { type: 'button', class: 'button secondary', onclick: step(-1), 'aria-label': 'Previous version' }, '◀'),
      slider,
      h('button', { type: 'button', class: 'button secondary', onclick: step(1), 'aria-label': 'Next version' }, '▶'),
      h('button', { type: 'button', class: 'button secondary', onclick: () => { slider.value = String(last); show(); }, 'aria-label': 'Last version' }, 'Last'),
      position),
    h('div', { class: 'table' },
      h('div', { class: 'table-main' }, boardEl),
      h('aside', { class: 'side' },
        h('section', { class: 'panel' }, h('h2', {}, 'Export'), exportPart, verifyEl),
        h('section', { class: 'panel log-panel' }, h('h2', {}, 'Log'), logEl))));
  await show();
}

async function exportAndVerify(gameId, verifyEl) {
  fill(verifyEl, h('p', { class: 'muted' }, 'Exporting…'));
  try {
    const response = await fetch(`/games/${gameId}/export`, { cache: 'no-store' });
    const text = await response.text();
    if (!response.ok) {
      let detail = text;
      try { detail = JSON.parse(text).detail; } catch { /* plain text */ }
      throw new Error(detail);
    }
    const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
    const { data: report } = await api('POST', '/verify', { body: { export: text } });
    fill(verifyEl,
      h('p', {}, h('a', { href: url, download: `${gameId}.jsonl`, class: 'button secondary' }, 'Save the export file')),
      h('p', { class: report.ok ? 'ok' : 'error', id: 'verify-result' }, report.ok ? '✔ Verified: ' : '✘ Not verified: ', report.detail),
      h('ul', { class: 'muted' },
        h('li', {}, `chain intact: ${report.chain_ok ? 'yes' : 'no'}`),
        h('li', {}, `signature valid: ${report.signature_ok ? 'yes' : 'no'} (key ${report.key_id || '?'}, ${report.key_trusted ? 'this server’s' : 'unknown'})`),
        h('li', {}, `set-up reproduced: ${report.setup_reproduced ? 'yes' : 'no'}; result reproduced: ${report.result_reproduced ? 'yes' : 'no'}`),
        h('li', {}, `${report.events} events`)));
  } catch (err) {
    fill(verifyEl, h('p', { class: 'error', role: 'alert' }, err.message));
  }
}
