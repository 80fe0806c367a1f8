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

// The event log in words.
function at(w, loc) {
  if (!loc) return '?';
  if (loc.frame !== undefined) return `frame space ${loc.frame}`;
  return `row ${loc.r + 1}, column ${loc.c + 1}`;
}

export function sentence(e, w) {
  const d = e.data || {};
  const who = w.who(d.seat);
  const ap = (x) => (x ? ` (${x} gold paid)` : '');
  switch (e.type) {
    case 'GameStarted': return `The game starts with ${w.n(d.seats, 'player')}.`;
    case 'IslandsAssembled': return `The island map is assembled from ${w.n(d.sel.length, 'tile')}.`;
    case 'StackOrderDrawn': return `Starting order: ${w.list(d.order, (s) => w.who(s))}.`;
    case 'PiratesPlaced': return 'The pirate markers are placed.';
    case 'PirateRevealed': return `A pirate marker of strength ${d.value} is revealed.`;
    case 'ProgressPileShuffled': return 'The progress tokens are shuffled.';
    case 'ProgressTokensRevealed': return `Progress tokens on display: ${w.list(Object.values(d.tokens))}.`;
    case 'ProductionStacksShuffled': return 'The production stacks are shuffled.';
    case 'ProductionRevealed': return `Production tokens on display: ${w.list(d.tokens)}.`;
    case 'TowerDropped': return d.colour === 'setup' ? `The cube tower is filled (${d.out.length} cubes fall out).`
      : `${w.n(d.batch, 'cube')} go into the tower; out fall ${d.out.length ? w.list(Object.entries(d.out.reduce((m, c) => ({ ...m, [c]: (m[c] || 0) + 1 }), {})), ([c, k]) => `${k} ${c}`) : 'none'}.`;
    case 'RoundStarted': return `Round ${d.round} begins (time value ${d.time_value}).`;
    case 'PhaseStarted': return `The ${d.colour} phase begins with ${d.ap} action points.`;
    case 'PhaseEnded': return `The ${d.colour} phase ends.`;
    case 'PhaseSkipped': return `The ${d.colour} phase is skipped.`;
    case 'ActionChosen': return `${who} takes a ${d.colour} cube${d.executed && d.executed !== d.colour ? ` and carries out ${d.executed}` : ''} (${d.ap_free} AP).`;
    case 'GoldTaken': return `${who} takes ${d.gold} gold instead of an action.`;
    case 'Passed': return `${who} passes.`;
    case 'TurnEnded': return `${who}'s turn ends.`;
    case 'ShipPlaced': return `${who} puts ship ${d.ship} on frame space ${d.frame}.`;
    case 'ShipMoved': return `${who} sails ship ${d.ship} to ${at(w, d.to)} (${d.distance} steps)${ap(d.gold)}.`;
    case 'TradingPostFounded': return `${who} founds a trading post on island ${d.island} at ${at(w, d.square)}${d.discovery_vp ? ` and scores ${d.discovery_vp} VP for the discovery` : ''}.`;
    case 'IslandCompleted': return `Island ${d.island} is complete: ${d.scores.map((x) => `${w.who(x.seat)} ${x.vp} VP`).join(', ')}.`;
    case 'TileTaken': return `${who} plans a ${d.kind} ${w.name(d.shape)}${ap(d.gold)}.`;
    case 'TilePlaced': return `${who} builds a ${d.kind} ${w.name(d.shape)} on island ${d.island}${d.vp ? ` for ${d.vp} VP` : ''}${d.commodities && d.commodities.length ? `, gaining ${w.list(d.commodities)}` : ''}.`;
    case 'ProductionBought': return `${who} buys ${w.name(d.token)}${ap(d.gold)}.`;
    case 'ProgressAdvanced': return `${who} advances ${w.n(d.n, 'space')} on the progress track${ap(d.gold)}.`;
    case 'SpecialAdvanced': return `${who} advances ${w.n(d.n, 'space')} on the special track to ${d.position}${ap(d.gold)}.`;
    case 'CannonsLoaded': return `${who} loads ${w.n(d.n, 'cannon')}${ap(d.gold)}.`;
    case 'ProgressTokenTaken': return `${who} takes ${w.name(d.token)} from ${d.space}.`;
    case 'GoldTokenUsed': return `${who} cashes ${w.name(d.token)} for ${d.gold} gold.`;
    case 'ChestCashed': return `${who} cashes a treasure chest${d.gold ? ` for ${d.gold} gold` : ''}.`;
    case 'TrackOverflowed': return `${who} is past the end of the ${d.track} track and takes ${d.gold} gold.`;
    case 'PiratesAttacked': return `Pirates of strength ${d.strength} attack: ${d.outcomes.map((o) => `${w.who(o.seat)} ${o.fended ? 'fends them off' : `loses ${o.vp_lost} VP`}`).join(', ')}.`;
    case 'ProgressDisplayRefreshed': return 'The progress display is refreshed.';
    case 'ProductionDisplayCleared': return 'The production display is cleared.';
    case 'FastPassageUsed': return `${who} uses Fast passage.`;
    case 'FairWindsUsed': return `${who} uses Fair winds.`;
    case 'ChronicleUsed': return `${who} uses the Chronicle${d.vp ? ` for ${d.vp} VP` : ''}.`;
    case 'GameEnded': return `The game ends: ${d.final.map((f) => `${w.who(f.seat)} ${f.total} VP`).join(', ')}.`;
    default: return null;
  }
}
