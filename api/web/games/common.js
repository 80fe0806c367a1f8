// Helpers shared by the board modules: clickable pieces (HTML and SVG), players' boxes, tracks.
import { h, seatName } from '../util.js';

/** The legal choices whose command matches. */
export function matching(ctx, match) {
  return ctx.choices.filter((c) => {
    try { return match(c.command); } catch { return false; }
  });
}

function activate(ctx, found) {
  if (found.length === 1) ctx.play(found[0].command);
  else ctx.narrow(found);
}

function what(found) {
  return found.length === 1 ? found[0].label : `${found.length} moves here: ${found.map((c) => c.label).join('; ')}`;
}

/** A piece of the board: a button when legal moves concern it (one move: play it; several: list them), else a box. */
export function piece(ctx, match, attrs, ...children) {
  const found = matching(ctx, match);
  if (!found.length) return h('div', attrs, ...children);
  return h('button', { ...attrs, type: 'button', class: `${attrs.class || ''} playable`, title: what(found),
    'aria-label': what(found), onclick: () => activate(ctx, found) }, ...children);
}

const SVG = 'http://www.w3.org/2000/svg';
/** An SVG element: s('rect', {x: 1}, child, ...). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** An SVG group that is a control when legal moves concern it: focusable, Enter/Space or a click acts. */
export function svgPiece(ctx, match, attrs, label, ...children) {
  const found = matching(ctx, match);
  const g = s('g', attrs, s('title', {}, found.length ? `${label} — ${what(found)}` : label), ...children);
  if (!found.length) return g;
  g.setAttribute('class', `${attrs.class || ''} playable`);
  g.setAttribute('tabindex', '0');
  g.setAttribute('role', 'button');
  g.setAttribute('aria-label', `${label}: ${what(found)}`);
  g.addEventListener('click', () => activate(ctx, found));
  g.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); activate(ctx, found); }
  });
  return g;
}

/** One box per seat, the viewer's own first. */
export function playerBoxes(ctx, players, body) {
  const order = [...players].sort((a, b) => (a.seat === ctx.me ? -1 : b.seat === ctx.me ? 1 : a.seat - b.seat));
  return h('div', { class: 'players' }, order.map((p) => {
    const seat = p.seat ?? players.indexOf(p);
    const acting = ctx.game && ctx.game.to_act && ctx.game.to_act.includes(seat);
    return h('section', { class: `player s${seat}${acting ? ' acting' : ''}`, 'aria-label': `Seat ${seat + 1}: ${seatName(ctx.seats[seat])}` },
      h('h3', {}, h('span', { class: 'dot', 'aria-hidden': 'true' }), seatName(ctx.seats[seat]), seat === ctx.me ? ' (you)' : ''),
      body(p, seat));
  }));
}

/**
 * A track: cells from `min` to `max`, the markers of `marks` ([{seat, at}] or [{label, at, class}]) on their
 * cells, and `scores` ({position: points}) written under the cells that score. Read as a sentence too.
 */
export function track(name, min, max, marks, ctx, scores = {}) {
  const cells = [];
  for (let i = min; i <= max; i += 1) {
    const here = marks.filter((m) => Math.min(max, Math.max(min, m.at)) === i);
    cells.push(h('li', { class: `cell${scores[i] !== undefined ? ' scores' : ''}`, title: `${i}${scores[i] !== undefined ? `: ${scores[i]} VP` : ''}` },
      h('span', { class: 'n' }, `${i}`),
      here.length ? h('span', { class: 'markers' },
        here.map((m) => h('span', { class: `marker ${m.seat !== undefined ? `s${m.seat}` : m.class || ''}` }, h('span', { class: 'dot' }), m.label || ''))) : null));
  }
  const said = marks.map((m) => `${m.seat !== undefined ? seatName(ctx.seats[m.seat]) : m.label} at ${m.at}`).join(', ');
  return h('div', { class: 'track' }, h('span', { class: 'track-name' }, name),
    h('ol', { class: 'cells', 'aria-label': `${name} track: ${said}` }, cells));
}
