// Amerigo: the island map drawn square by square from the view's rows (water, land, anchors, trading-post spaces,
// commodities) inside its sea frame, with the tiles built, the trading posts and the ships; the cube tower's output
// (action area, tower, storage); the production and progress displays; each player's tracks and holdings.
import { h, title, counts, facts, seatName } from '../util.js';
import { piece, playerBoxes, s as svg, svgPiece, track } from './common.js';

const COLOURS = ['blue', 'black', 'red', 'brown', 'green', 'yellow', 'white'];
const CELL = 20;
const BAND = 24;

function cubeRow(n, colour) {
  return h('span', { class: 'cube-row' }, Array.from({ length: Math.min(n, 12) }, () => h('span', { class: `cubelet c-${colour}` })),
    h('span', { class: 'k' }, `${n}`));
}

function cubes(s, ctx) {
  return h('table', { class: 'cubes' },
    h('caption', {}, 'Cube tower output'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Action'), h('th', { scope: 'col' }, 'Action area'), h('th', { scope: 'col' }, 'In the tower'), h('th', { scope: 'col' }, 'Storage'))),
    h('tbody', {}, COLOURS.map((c) => h('tr', { class: s.phase === c ? 'current' : null },
      h('th', { scope: 'row' }, piece(ctx, (cmd) => cmd.type === 'choose_action' && cmd.colour === c, { class: `cube c-${c}` },
        `${title(c)}: ${ctx.name(c) === c ? '' : ''}${(ctx.codes.colour?.[c] || '').split(':')[0]}`)),
      h('td', {}, cubeRow(s.action_area[c] ?? 0, c)), h('td', {}, `${s.tower[c] ?? 0}`), h('td', {}, `${s.storage[c] ?? 0}`)))));
}

/** The centre of frame space i, numbered clockwise from the north-west, one per outer tile edge. */
function frameXY(i, tilesW, tilesH, size) {
  const span = size * CELL;
  const W = tilesW * span;
  const H = tilesH * span;
  if (i < tilesW) return [BAND + (i + 0.5) * span, BAND / 2, span, BAND];
  if (i < tilesW + tilesH) return [BAND + W + BAND / 2, BAND + (i - tilesW + 0.5) * span, BAND, span];
  if (i < 2 * tilesW + tilesH) return [BAND + (2 * tilesW + tilesH - 1 - i + 0.5) * span, BAND + H + BAND / 2, span, BAND];
  return [BAND / 2, BAND + (2 * tilesW + 2 * tilesH - 1 - i + 0.5) * span, BAND, span];
}

const SAME = (a, b) => a && b && a.r === b.r && a.c === b.c;

function map(s, ctx) {
  const b = s.board || {};
  const rows = b.rows || [];
  if (!rows.length) return h('p', { class: 'muted' }, 'The islands are not laid out yet.');
  const size = (ctx.catalogue.board || {}).tile_size || 6;
  const tilesW = rows[0].length / size;
  const tilesH = rows.length / size;
  const width = 2 * BAND + rows[0].length * CELL;
  const height = 2 * BAND + rows.length * CELL;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'amap', role: 'group', 'aria-label': 'Island map and sea frame' });
  root.append(svg('rect', { x: 0, y: 0, width, height, class: 'frame-sea' }));
  const frames = b.frame_spaces || 2 * (tilesW + tilesH);
  for (let i = 0; i < frames; i += 1) {
    const [x, y, w, hh] = frameXY(i, tilesW, tilesH, size);
    root.append(svgPiece(ctx, (c) => (c.type === 'place_ship' && c.frame === i) || (c.type === 'move_ship' && c.to && c.to.frame === i),
      { class: 'frame-space' }, `Frame space ${i}`,
      svg('rect', { x: x - w / 2 + 1, y: y - hh / 2 + 1, width: w - 2, height: hh - 2, rx: 4 }),
      svg('text', { x, y: y + 4, 'text-anchor': 'middle' }, `${i}`)));
  }
  const covered = new Map();
  for (const t of b.tiles || []) for (const q of t.squares) covered.set(`${q.r},${q.c}`, t);
  const posts = new Map((b.trading_posts || []).map((p) => [`${p.square.r},${p.square.c}`, p.seat]));
  const names = ctx.codes.commodity || {};
  rows.forEach((line, r) => line.split('').forEach((ch, c) => {
    const x = BAND + c * CELL;
    const y = BAND + r * CELL;
    const water = ch === '.' || ch === 'A';
    const tile = covered.get(`${r},${c}`);
    const post = posts.get(`${r},${c}`);
    const parts = [svg('rect', { x, y, width: CELL, height: CELL, class: water ? 'water' : 'land' })];
    if (ch === 'A') parts.push(svg('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 4, class: 'anchor' }));
    if (ch === 'T') parts.push(svg('rect', { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, class: 'post-space' }));
    if ('CEFKS'.includes(ch)) parts.push(svg('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 7, class: `good k-${ch}` }), svg('text', { x: x + CELL / 2, y: y + CELL / 2 + 3.5, 'text-anchor': 'middle', class: 'good-letter' }, ch));
    if (tile) parts.push(svg('rect', { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: `built ${tile.kind}${tile.seat !== null ? ` s${tile.seat}` : ''}` }));
    if (post !== undefined) parts.push(svg('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: `post s${post}` }));
    const here = { r, c };
    const label = `Row ${r + 1}, column ${c + 1}: ${water ? 'water' : names[ch] || (ch === 'T' ? 'trading-post space' : 'land')}${tile ? `, ${tile.kind} tile` : ''}${post !== undefined ? `, trading post of ${seatName(ctx.seats[post])}` : ''}`;
    root.append(svgPiece(ctx, (cmd) => (cmd.type === 'move_ship' && SAME(cmd.to, here)) || (cmd.type === 'place_tile' && cmd.squares.some((q) => SAME(q, here))),
      { class: 'sq' }, label, parts));
  }));
  for (const p of s.players) {
    (p.ships || []).forEach((loc, i) => {
      if (!loc) return;
      let cx; let cy;
      if (loc.frame !== undefined) [cx, cy] = frameXY(loc.frame, tilesW, tilesH, size);
      else { cx = BAND + (loc.c + 0.5) * CELL; cy = BAND + (loc.r + 0.5) * CELL; }
      const dx = loc.frame !== undefined ? (i === 0 ? -7 : 7) : 0;
      root.append(svgPiece(ctx, (cmd) => cmd.type === 'found_trading_post' && cmd.ship === i && p.seat === ctx.me,
        { class: `boat-mark s${p.seat}` }, `${seatName(ctx.seats[p.seat])}'s ship ${i}`,
        svg('path', { d: `M ${cx + dx - 8} ${cy - 2} L ${cx + dx + 8} ${cy - 2} L ${cx + dx + 5} ${cy + 5} L ${cx + dx - 5} ${cy + 5} Z`, class: 'hull' }),
        svg('path', { d: `M ${cx + dx} ${cy - 2} L ${cx + dx} ${cy - 10} L ${cx + dx + 6} ${cy - 4} Z`, class: 'sail' })));
    });
  }
  return h('div', { class: 'amap-wrap' }, root,
    h('p', { class: 'legend muted' }, 'Blue: water (a ring marks an anchor); green: land; a white square marks a trading-post space; letters are commodities (',
      Object.entries(names).map(([k, v]) => `${k} ${v}`).join(', '), '). Built tiles and trading posts take their owner’s colour; neutral tiles are brown. The numbered band is the sea frame.'));
}

function tracks(s, ctx) {
  const board = ctx.catalogue.board || {};
  const marks = (key) => s.players.map((p) => ({ seat: p.seat, at: p[key] }));
  return h('div', { class: 'tracks' },
    track('Progress', 0, (board.progress_track || {}).last || 18, marks('progress'), ctx, (board.progress_track || {}).vp || {}),
    track('Special', 0, (board.special_track || {}).last || 20, marks('special'), ctx, (board.special_track || {}).vp || {}),
    track('Cannon', 0, board.cannon_track_max || 12, marks('cannon'), ctx));
}

export function render(s, ctx) {
  const phase = s.phase ? `${title(s.phase)} phase` : 'setting up';
  return h('div', { class: 'amerigo' },
    h('div', { class: 'row wide-first' },
      h('section', { class: 'panel' }, h('h3', {}, 'Map'), map(s, ctx)),
      h('section', { class: 'panel' }, h('h3', {}, s.round ? `Round ${s.round} of ${(ctx.catalogue.board || {}).rounds || 5} · ${phase}` : 'Setting up'), cubes(s, ctx),
        facts([['Action points', s.ap], ['Time value', s.time_value],
          ['Pirates', `${(s.pirates.revealed || []).join(', ') || 'none'} revealed; ${s.pirates.hidden_slots ?? '?'} hidden`]], 'Turn'))),
    h('section', { class: 'panel' }, h('h3', {}, 'Tracks'), tracks(s, ctx)),
    h('div', { class: 'row' },
      h('section', { class: 'panel' }, h('h3', {}, 'Production display'),
        s.production_display.length ? null : h('p', { class: 'muted' }, 'empty'),
        h('ul', { class: 'supply' }, s.production_display.map((t) => h('li', {},
          piece(ctx, (c) => c.type === 'buy_production' && c.token === t, { class: `building-card k-${t.split('-')[1]}` }, ctx.name(t)))))),
      h('section', { class: 'panel' }, h('h3', {}, 'Progress display'),
        h('ul', { class: 'supply' }, Object.entries(s.progress_display).map(([slot, t]) => h('li', {},
          piece(ctx, (c) => c.type === 'take_progress_token' && c.token === t, { class: 'building-card' }, `${slot}: ${t ? ctx.name(t) : '—'}`)))))),
    playerBoxes(ctx, s.players, (p) => facts([
      ['Gold', p.gold], ['VP', p.vp], ['Commodities', counts(Object.fromEntries(Object.entries(p.commodities).map(([k, v]) => [(ctx.codes.commodity || {})[k] || k, v])))],
      ['Ships', p.ships.map((x, i) => `${i}: ${x === null ? 'not yet at sea' : x.frame !== undefined ? `frame space ${x.frame}` : `row ${x.r + 1}, column ${x.c + 1}`}`).join(' · ')],
      ['Trading posts left', p.trading_posts_left], ['Chests', p.chests],
      ['Production', p.production.length ? p.production.map(ctx.name).join(', ') : 'none'],
      ['Progress tokens', (p.progress_tokens || []).length ? p.progress_tokens.map((x) => `${ctx.name(x.token)}${x.used ? ' (used)' : ''}`).join(', ') : 'none'],
      ['Planned tiles', plannedTiles(ctx, p.planned)],
    ], 'Player')));
}

/** A player's planned tiles as a list to read: "neutral bent 3-square tile, village 1-square tile ×2". */
function plannedTiles(ctx, planned) {
  const tiles = ['neutral', 'village'].flatMap((kind) => Object.entries((planned || {})[kind] || {})
    .map(([shape, n]) => `${kind} ${ctx.name(shape)}${n > 1 ? ` ×${n}` : ''}`));
  return tiles.length ? tiles.join(', ') : h('span', { class: 'muted' }, 'none');
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
    case 'ShipMoved': return `${who} sails ship ${d.ship} to ${at(w, d.to)} (${w.n(d.distance, 'step')})${ap(d.gold)}.`;
    case 'TradingPostFounded': return `${who} founds a trading post on island ${d.island} at ${at(w, d.square)}${d.discovery_vp ? ` and scores ${d.discovery_vp} VP for the discovery` : ''}.`;
    case 'IslandCompleted': return `${who} completes island ${d.island} for ${d.vp} VP${d.chest ? ' and its treasure chest' : ''}; trading posts score ${d.scores.length ? d.scores.map((x) => `${x.vp} VP for ${w.who(x.seat)}`).join(', ') : 'nothing'}.`;
    case 'TileTaken': return `${who} plans a ${d.kind} ${w.name(d.shape)}${ap(d.gold)}.`;
    case 'TilePlaced': return `${who} builds a ${d.kind} ${w.name(d.shape)} on island ${d.island}${d.vp ? ` for ${d.vp} VP` : ''}${d.commodities && d.commodities.length ? `, gaining ${w.list(d.commodities)}` : ''}.`;
    case 'ProductionBought': return `${who} buys ${w.name(d.token)}${ap(d.gold)}.`;
    case 'ProgressAdvanced': return d.n !== 0 ? `${who} advances ${w.n(d.n, 'space')} on the progress track${ap(d.gold)}.`
      : `${who}'s disc is already on the last space of the progress track.`;
    case 'SpecialAdvanced': return d.n !== 0 ? `${who} advances ${w.n(d.n, 'space')} on the special track to ${d.position}${ap(d.gold)}.`
      : `${who}'s disc is already on the last space of the special track.`;
    case 'CannonsLoaded': return d.n !== 0 ? `${who} loads ${w.n(d.n, 'cannon')}${ap(d.gold)}.` : `${who}'s cannons are all loaded already.`;
    case 'ProgressTokenTaken': return `${who} takes ${w.name(d.token)} from ${d.space}.`;
    case 'GoldTokenUsed': return `${who} cashes ${w.name(d.token)} for ${d.gold} gold.`;
    case 'ChestCashed': return `${who} cashes a treasure chest${d.gold ? ` for ${d.gold} gold` : ''}.`;
    case 'TrackOverflowed': return `${who} has action points left at the end of the ${d.track} track and takes ${d.gold} gold for them.`;
    case 'PiratesAttacked': return `Pirates of strength ${d.strength} attack: ${d.outcomes.map((o) => `${w.who(o.seat)} ${o.fended ? 'fends them off' : `loses ${o.vp_lost} VP`}`).join(', ')}.`;
    case 'ProgressDisplayRefreshed': return 'The progress display is refreshed.';
    case 'ProductionDisplayCleared': return 'The production display is cleared.';
    case 'FastPassageUsed': return `${who} uses Fast passage.`;
    case 'FairWindsUsed': return `${who} uses Fair winds.`;
    case 'ChronicleUsed': return `${who} uses the Chronicle${d.vp ? ` for ${d.vp} VP` : ''}.`;
    case 'GameEnded': return `The game ends: ${d.final.map((f) => `${w.who(f.seat)} has ${f.total} VP`).join(', ')}.`;
    default: return null;
  }
}
