// Amerigo: the cube tower's output (action area, tower and storage by colour), the island map's
// squares with commodities, the production and progress displays, and each player's tracks and ships.
import { h, title, counts, facts, seatName } from '../util.js';
import { piece, playerBoxes } from './common.js';

const COLOURS = ['blue', 'black', 'red', 'brown', 'green', 'yellow', 'white'];

function cubes(s, ctx) {
  return h('table', { class: 'cubes' },
    h('caption', {}, 'Cube tower'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Colour'), h('th', { scope: 'col' }, 'Action area'), h('th', { scope: 'col' }, 'Tower'), h('th', { scope: 'col' }, 'Storage'))),
    h('tbody', {}, COLOURS.map((c) => h('tr', {},
      h('th', { scope: 'row' }, piece(ctx, (cmd) => cmd.type === 'choose_action' && cmd.colour === c, { class: `cube c-${c}` }, title(c))),
      h('td', {}, `${s.action_area[c] ?? 0}`), h('td', {}, `${s.tower[c] ?? 0}`), h('td', {}, `${s.storage[c] ?? 0}`)))));
}

function map(s, ctx) {
  const squares = (s.board && s.board.commodities) || [];
  if (!squares.length) return h('p', { class: 'muted' }, 'no commodities on the map');
  const maxR = Math.max(...squares.map((q) => q.square.r)) + 1;
  const maxC = Math.max(...squares.map((q) => q.square.c)) + 1;
  const cells = new Map(squares.map((q) => [`${q.square.r},${q.square.c}`, q.commodity]));
  const posts = new Map(((s.board && s.board.trading_posts) || []).map((p) => [`${p.square?.r},${p.square?.c}`, p.seat]));
  const ships = new Map();
  for (const p of s.players) for (const [i, sh] of (p.ships || []).entries()) if (sh && sh.r !== undefined) ships.set(`${sh.r},${sh.c}`, [p.seat, i]);
  const rows = [];
  for (let r = 0; r < maxR; r += 1) {
    const row = [];
    for (let c = 0; c < maxC; c += 1) {
      const k = cells.get(`${r},${c}`);
      const post = posts.get(`${r},${c}`);
      const ship = ships.get(`${r},${c}`);
      row.push(ship
        ? h('span', { class: `sq ship s${ship[0]}`, title: `${seatName(ctx.seats[ship[0]])}: ship ${ship[1] + 1}` }, `${ship[0] + 1}`)
        : h('span', { class: `sq${k ? ` k-${k}` : ''}${post !== undefined ? ` s${post}` : ''}` }, k || ''));
    }
    rows.push(h('div', { class: 'sqrow' }, row));
  }
  return h('div', {}, h('div', { class: 'amap', role: 'img', 'aria-label': `Island map: ${squares.length} commodity squares, ${ships.size} ships` }, rows),
    h('p', { class: 'legend muted' }, 'Letters: commodity squares (C, E, F, K, S). Numbers: a seat’s ship.'));
}

export function render(s, ctx) {
  return h('div', { class: 'amerigo' },
    h('div', { class: 'row' },
      h('section', { class: 'panel' }, h('h3', {}, `Round ${s.round} · ${s.phase ? `${title(s.phase)} phase` : 'setting up'}`), cubes(s, ctx),
        facts([['Action points', s.ap], ['Time value', s.time_value], ['Pirates revealed', (s.pirates.revealed || []).join(', ') || 'none']], 'Turn')),
      h('section', { class: 'panel' }, h('h3', {}, 'Map'), map(s, ctx))),
    h('section', { class: 'panel' }, h('h3', {}, 'Production display'),
      h('ul', { class: 'supply' }, s.production_display.map((t) => h('li', {},
        piece(ctx, (c) => c.type === 'buy_production' && c.token === t, { class: 'building-card' }, t)))),
      h('h3', {}, 'Progress display'),
      h('ul', { class: 'supply' }, Object.entries(s.progress_display).map(([slot, t]) => h('li', {},
        piece(ctx, (c) => c.type === 'take_progress_token' && c.token === t, { class: 'building-card' }, `${slot}: ${t || '—'}`))))),
    playerBoxes(ctx, s.players, (p) => facts([
      ['Gold', p.gold], ['VP', p.vp], ['Cannon', p.cannon], ['Progress', p.progress], ['Special', p.special],
      ['Chests', p.chests], ['Commodities', counts(p.commodities)],
      ['Ships', p.ships.map((x) => (x === null ? 'not placed' : x.r !== undefined ? `row ${x.r}, column ${x.c}` : JSON.stringify(x))).join(' · ')],
      ['Trading posts left', p.trading_posts_left], ['Production', p.production.length ? p.production.join(', ') : 'none'],
    ], 'Player')));
}
