// Archipelago: the hex map (tiles with their land/sea, controller and citizens), the market of
// evolution cards, the balance tracks (population, surplus, rebellion, markets), the bids, and players.
import { h, title, counts, facts } from '../util.js';
import { piece, playerBoxes } from './common.js';

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function hexMap(state) {
  const size = 34;
  const tiles = state.tiles || [];
  if (!tiles.length) return h('p', { class: 'muted' }, 'No tile placed yet.');
  const units = new Map();
  for (const u of state.units || []) if (u.tile) units.set(u.tile, (units.get(u.tile) || []).concat(u));
  const centre = (t) => [size * Math.sqrt(3) * (t.q + t.r / 2), size * 1.5 * t.r];
  const xs = tiles.map((t) => centre(t)[0]);
  const ys = tiles.map((t) => centre(t)[1]);
  const pad = size + 4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const svg = s('svg', { viewBox: box.join(' '), width: Math.round(box[2] * 1.5), height: Math.round(box[3] * 1.5), class: 'hexmap', role: 'img', 'aria-label': `Map of ${tiles.length} tiles` });
  for (const t of tiles) {
    const [x, y] = centre(t);
    const corners = Array.from({ length: 6 }, (_, i) => {
      const a = (Math.PI / 180) * (60 * i - 30);
      return `${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`;
    }).join(' ');
    const here = units.get(t.tile) || [];
    const g = s('g', { class: `hex${t.controller !== null && t.controller !== undefined ? ` s${t.controller}` : ''}` },
      s('title', {}, `${t.tile} face ${t.face}: ${t.huts} huts, ${(t.icons || []).join(', ')}; ${here.length} units${t.controller !== null && t.controller !== undefined ? `; seat ${t.controller + 1} controls` : ''}`),
      s('polygon', { points: corners, class: t.has_land ? 'land' : 'sea' }),
      s('text', { x, y: y - 8, 'text-anchor': 'middle', class: 'hex-id' }, t.tile),
      s('text', { x, y: y + 6, 'text-anchor': 'middle', class: 'hex-icons' }, (t.icons || []).map((i) => i[0] + i.slice(1, 2).toLowerCase()).join(' ')),
      s('text', { x, y: y + 20, 'text-anchor': 'middle', class: 'hex-units' }, here.length ? `${here.length} unit${here.length === 1 ? '' : 's'}` : ''));
    svg.append(g);
  }
  return svg;
}

export function render(st, ctx) {
  const market = h('ul', { class: 'supply', 'aria-label': 'Market' }, (st.market || []).map((m) => h('li', {},
    piece(ctx, (c) => c.type === 'evo_buy' && c.slot === m.slot, { class: 'building-card' }, `${title(String(m.name).toLowerCase())} · ${m.price}$`))));
  const a = st.auction || {};
  return h('div', { class: 'archipelago' },
    h('section', { class: 'panel' }, h('h3', {}, `Round ${st.round} · ${title(String(st.phase || '').toLowerCase())}${st.prompt ? ` · ${title(st.prompt)}` : ''}`),
      hexMap(st)),
    h('div', { class: 'row' },
      h('section', { class: 'panel' }, h('h3', {}, 'Balance'), facts([
        ['Population', st.population], ['Surplus', st.surplus], ['Rebellion', st.rebellion],
        ['Domestic market', counts(st.domestic_market, true)], ['Export market', counts(st.export_market, true)],
        ['Bank', counts(st.bank, true)], st.crisis ? ['Crisis', JSON.stringify(st.crisis)] : null,
      ], 'Balance tracks')),
      h('section', { class: 'panel' }, h('h3', {}, 'Market'), market,
        h('h3', {}, 'Turn order bids'), facts([
          ['Order', (st.order || []).map((x) => `seat ${x + 1}`).join(' → ')],
          ['Bidders', (a.bidders || []).map((x) => `seat ${x + 1}`).join(', ') || 'none'],
          a.picker !== null && a.picker !== undefined ? ['Picking', `seat ${a.picker + 1}`] : null,
        ], 'Bids'))),
    playerBoxes(ctx, st.players, (p) => facts([
      ['Money', p.money ?? '?'], ['Cubes', counts(p.cubes)], ['Action discs', `${p.ad_available}/${p.ad_total}`],
      ['Cards', p.cards_owned], ['Objectives', Array.isArray(p.objectives) ? (p.objectives.join(', ') || 'none') : p.objectives ?? 'hidden'],
      ['Tiles in hand', Array.isArray(p.hand) ? p.hand.map((x) => x.tile || '?').join(', ') || 'none' : p.hand ?? 'hidden'],
    ], 'Player')));
}
