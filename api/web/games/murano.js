// Murano: the action ring (18 spaces around the lagoon, counterclockwise) with the ships on it; each island drawn
// from the catalogue's grid (building plots, streets, water) with the tiles built on it and its gondola dock;
// the supplies in the middle of the ring; each player's gold, VP, beads, gondoliers, hand and characters.
import { h, title, counts, facts, seatName, rowColumn } from '../util.js';
import { piece, playerBoxes } from './common.js';

const COLOURS = ['white', 'brown', 'orange', 'grey'];
const BEADS = ['red', 'green', 'blue'];  // the rules' order

// counterclockwise around a 6 x 5 frame: along the top from the right, down the left, along the bottom, up the right
function ringCell(i) {
  if (i < 6) return [1, 6 - i];
  if (i < 9) return [i - 4, 1];
  if (i < 15) return [5, i - 8];
  return [19 - i, 6];
}

// Where the ring's long words may break (soft hyphens): a phone's ring space holds about seven letters a line,
// and the browser's own hyphenation has no dictionary on some systems, where "Production" broke as "Product-ion".
const BREAKS = {
  gondoliers: 'gon-do-liers', gondolier: 'gon-do-lier', production: 'pro-duc-tion', character: 'char-ac-ter',
  characters: 'char-ac-ters', special: 'spe-cial', building: 'build-ing', buildings: 'build-ings', factory: 'fac-to-ry',
};

export function breakable(text) {
  return String(text).replace(/[A-Za-z]+/g, (word) => {
    const pattern = BREAKS[word.toLowerCase()];
    if (!pattern) return word;
    let at = 0;
    return pattern.split('-').map((part) => word.slice(at, (at += part.length))).join('\u00AD');
  });
}

function ring(s, ctx, centre) {
  const shipsAt = new Map();
  s.ships.forEach((pos, ship) => shipsAt.set(pos, [...(shipsAt.get(pos) || []), ship]));
  const anchors = new Set(((ctx.catalogue.board || {}).ring || []).filter((r) => r.anchor).map((r) => r.index));
  const spaces = s.ring.map((action, space) => {
    const ships = shipsAt.get(space) || [];
    const [row, col] = ringCell(space);
    return h('li', { style: `grid-row: ${row}; grid-column: ${col}` },
      piece(ctx, (c) => (c.type === 'move_ship' || c.type === 'pass') && c.to === space,
        { class: `space a-${action}${ships.length ? ' has-ship' : ''}${anchors.has(space) ? ' anchor' : ''}` },
        h('span', { class: 'n' }, `${space}`),
        h('span', { class: 'act' }, breakable(ctx.name(action))),
        ships.length ? h('span', { class: 'ships-here' }, ships.map((ship) => h('span', {
          class: `boat${ship === s.red_ship ? ' red' : ''}`, title: `ship ${ship}${ship === s.red_ship ? ' (red)' : ''}`,
        }, `${ship}`))) : null));
  });
  return h('div', { class: 'ring-wrap' },
    h('ol', { class: 'ring', 'aria-label': `Action ring: ${s.ships.map((pos, ship) => `ship ${ship} on ${pos}`).join(', ')}` }, spaces,
      h('li', { class: 'ring-centre', style: 'grid-row: 2 / 5; grid-column: 2 / 6' }, centre)));
}

function pieceOn(p, ctx) {
  if (!p) return null;
  const owner = p.owner !== null && p.owner !== undefined ? ` s${p.owner}` : '';
  if (p.kind === 'street') {
    const who = String(p.face || '').replace('ST_', '').replace('NONE', '');
    return h('span', { class: 'tile-on street', title: ctx.name(p.face) }, who.split('').map((c) => h('span', { class: `customer k-${c}` })));
  }
  if (p.kind === 'shop') return h('span', { class: `tile-on shop f-${p.face}${owner}`, title: `${p.face} shop${owner ? ` of ${seatName(ctx.seats[p.owner])}` : ''}` }, 'S');
  if (p.kind === 'palace') return h('span', { class: `tile-on palace${owner}`, title: `palace with ${p.face} crest(s)` }, `P${p.face}`);
  if (p.kind === 'glass_factory') return h('span', { class: `tile-on factory${owner}`, title: 'glass factory' }, 'G');
  return h('span', { class: `tile-on special${owner}`, title: String(p.kind).replace(/_/g, ' ') }, 'B');
}

function island(name, grid, s, ctx, built) {
  const rows = grid.map((line, r) => line.split('').map((cell, c) => {
    const id = `${name}:r${r}c${c}`;
    const here = built.get(id);
    if (cell === '.') return h('span', { class: 'cell water', 'aria-hidden': 'true' });
    const kind = cell === 'S' ? 'street-space' : 'plot';
    return piece(ctx, (cmd) => cmd.space === id, { class: `cell ${kind}${here ? ' built' : ''}`, 'data-space': id },
      pieceOn(here, ctx));
  }));
  const gondolas = new Map((s.gondolas || []).filter((g) => g.island === name).map((g) => [g.colour, g.seat]));
  const colours = COLOURS.slice(0, 4);
  const dock = h('div', { class: 'dock', 'aria-label': `Gondolas of ${ctx.name(name)}` }, colours.map((colour) => {
    const seat = gondolas.get(colour);
    return piece(ctx, (cmd) => cmd.type === 'seat_gondolier' && cmd.island === name && cmd.colour === colour,
      { class: `gondola g-${colour}${seat !== undefined ? ` s${seat} taken` : ''}`, title: `${colour} gondola${seat !== undefined ? `: ${seatName(ctx.seats[seat])}` : ': free'}` },
      seat !== undefined ? h('span', { class: 'dot' }) : '');
  }));
  const count = [...built.keys()].filter((k) => k.startsWith(`${name}:`)).length;
  return h('section', { class: 'island', 'aria-label': `${ctx.name(name)}: ${count} tiles built` },
    h('h4', {}, ctx.name(name)),
    h('div', { class: 'grid', style: `grid-template-columns: repeat(${grid[0].length}, 24px)` }, rows),
    dock);
}

// A seat's colour on the page is its colour in the game (its gondolas, shops and markers), not the page's default
// red, blue, green: one colour for one player everywhere.
const SEAT_COLOURS = { white: '#d0d7d7', brown: '#a9746e', orange: '#f0b27a', grey: '#aab7b8' };  // white: a shade that shows on light tiles

function useGameColours(players) {
  (players || []).forEach((p, seat) => {
    const colour = SEAT_COLOURS[p.colour];
    if (colour) document.documentElement.style.setProperty(`--s${seat}`, colour);
  });
}

export function render(s, ctx) {
  useGameColours(s.players);
  const grids = (ctx.catalogue.board || {}).island_grids || {};
  const built = new Map((s.board || []).map((p) => [p.space, p]));
  const islands = s.islands.filter((name) => grids[name]).map((name) => island(name, grids[name], s, ctx, built));
  const pending = s.pending && s.pending.decision && !['OVER', 'TURN'].includes(s.pending.decision)
    ? h('p', { class: 'pending' }, `${seatName(ctx.seats[s.pending.seat])}: ${ctx.codes.decision?.[s.pending.decision] || title(s.pending.decision.toLowerCase())}`) : null;
  const centre = h('div', { class: 'centre' },
    h('strong', {}, `Turn ${s.turns_played + 1}${s.end_triggered ? ' · final turns' : ''}`), pending,
    facts([
      ['Bead bag', counts(s.bag, true, BEADS)],
      ['Tiles left', counts(s.supplies)],
      s.empty_supplies.length ? ['Empty', s.empty_supplies.map(title).join(', ')] : null,
    ], 'Supplies'));
  return h('div', { class: 'murano' },
    h('section', { class: 'panel' }, h('h3', {}, 'The lagoon'), ring(s, ctx, centre)),
    h('section', { class: 'panel' }, h('h3', {}, 'Islands'),
      h('div', { class: 'islands' }, islands),
      h('p', { class: 'legend muted' }, 'S shop (its colour, border in the owner’s colour), P palace with its crests, G glass factory, B special building; dots on streets are customers; boats below an island are its gondolas.')),
    playerBoxes(ctx, s.players, (p) => facts([
      ['Colour', p.colour], ['Gold', p.gold ?? '?'], ['VP', p.vp ?? '?'], ['Beads', counts(p.beads, true, BEADS)],
      ['Gondoliers', `${p.personal_gondoliers} personal · ${p.seated_gondoliers} seated · ${p.general_supply_gondoliers} in the general supply`],
      ['Hand', p.hand && p.hand.length ? p.hand.map((x) => (x.face !== null && x.face !== undefined ? `${x.kind === 'palace' ? `palace ${x.face}` : `${x.face} ${x.kind}`}` : title(x.kind))).join(', ') : 'empty'],
      ['Characters', p.characters && p.characters.length ? p.characters.map(ctx.name).join(', ') : `${p.character_count} hidden`],
      p.special_cards && p.special_cards.length ? ['Special cards', p.special_cards.map(ctx.name).join(', ')] : null,
      p.assigned_characters && p.assigned_characters.length ? ['Assigned', p.assigned_characters.map((a) => `${ctx.name(a.card)} → ${ctx.name(a.island)} (${a.vp} VP)`).join('; ')] : null,
    ], 'Player')));
}

// The event log in words.
function where(w, space) {
  const [island, cell] = String(space).split(':');
  const square = rowColumn(cell);
  return square ? `${w.name(island)} at ${square}` : `${w.name(island)} ${cell || ''}`.trim();
}

function tile(w, kind, face) {
  if (kind === 'shop') return face ? `a ${face} shop` : 'a shop';
  if (kind === 'palace') return face ? `a palace with ${w.n(face, 'crest')}` : 'a palace';
  if (kind === 'street') return face ? `a ${w.name(face).toLowerCase()}` : 'a street';
  return `a ${String(kind).replace(/_/g, ' ')}`;
}

export function sentence(e, w) {
  const d = e.data || {};
  const who = w.who(d.seat);
  const action = (a) => w.name(a).toLowerCase();
  switch (e.type) {
    case 'GameSetUp': return `The game is set up for ${w.n(d.colours.length, 'player')} (${w.list(d.colours, (c) => c)}).`;
    case 'TurnStarted': return `${who}'s ${d.final ? 'final ' : ''}turn begins.`;
    case 'TurnEnded': return `${who}'s turn ends.`;
    case 'ShipMoved': return `${who} moves ship ${d.ship}${d.ship === 0 ? ' (red)' : ''} from space ${d.from} to ${d.to}${d.cost ? ` for ${d.cost} gold` : ''}.`;
    case 'Passed': return `${who} passes, moving ship ${d.ship} to space ${d.to}, and takes ${d.gold} gold.`;
    case 'ActionStarted': return `${who} takes the ${action(d.action)} action.`;
    case 'CharactersDrawn': return `${who} draws ${w.n(d.count, 'character card')}${d.price !== undefined ? ` (hiring costs ${d.price} gold)` : ''}.`;
    case 'CharacterKept': return `${who} hires ${d.card ? w.name(d.card) : 'a character'} for ${d.price} gold.`;
    case 'CharactersDeclined': return `${who} hires nobody.`;
    case 'TileBought': return `${who} buys ${tile(w, d.kind, d.face)} (${d.mode === 'choose' ? 'chosen from the stack' : 'top of the stack'}) for ${d.price} gold.`;
    case 'StackViewed': return `${who} looks through the ${String(d.kind).replace(/_/g, ' ')} stack${d.price ? ` for ${d.price} gold` : ''}.`;
    case 'StackShuffled': return `The ${String(d.kind).replace(/_/g, ' ')} stack is shuffled.`;
    case 'StreetDrawn': return `${who} draws ${tile(w, 'street', d.face)}.`;
    case 'TilePlaced': return `${who} places ${tile(w, d.kind, d.face)} on ${where(w, d.space)}${d.vp ? ` for ${d.vp} VP` : ''}${d.free ? ' (free placement)' : ''}.`;
    case 'BuildStopped': return `${who} stops building.`;
    case 'GoldTaken': return `${who} takes ${d.gold} gold.`;
    case 'GondolierFired': return `${who} fires a gondolier for ${d.gold} gold.`;
    case 'GondolierHired': return `${who} hires a gondolier${d.price ? ` for ${d.price} gold` : ''}.`;
    case 'GondolierSeated': return `${who} seats a gondolier on the ${d.colour} gondola of ${w.name(d.island)} for ${d.price} gold.`;
    case 'IncomeCollected': return `${who} collects ${d.gold} gold of income${d.island ? ` on ${w.name(d.island)}` : ''}.`;
    case 'FactoriesUsed': return `${who} uses ${w.n(d.count ?? 0, 'factory', 'factories')}${d.vp_lost ? ` and loses ${d.vp_lost} VP` : ''}.`;
    case 'BeadDrawn': return `${who} draws a ${d.colour || ''} bead.`.replace('  ', ' ');
    case 'BeadsSold': return `${who} sells beads (${Object.entries(d.beads || {}).filter(([, k]) => k).map(([c, k]) => `${k} ${c}`).join(', ')}) for ${d.gold} gold.`;
    case 'SaleSkipped': return `${who} sells nothing.`;
    case 'SpecialCardsDrawn': return `${who} draws special cards.`;
    case 'SpecialCardTaken': return `${who} keeps ${w.name(d.card)}.`;
    case 'FreePlacementOffered': return `${who} may place the ${String(d.kind).replace(/_/g, ' ')} at once.`;
    case 'FreePlacementDeclined': return `${who} keeps the tile in hand.`;
    case 'EndTriggered': return `The end of the game is triggered (${w.list(d.empty, (x) => `no ${x.replace(/_/g, ' ')} left`)}).`;
    case 'ScoringStarted': return `${who} scores their characters.`;
    case 'CardAssigned': return `${who} assigns ${w.name(d.card)} to ${w.name(d.island)} for ${d.vp} VP.`;
    case 'BonusScored': return `${who} scores ${d.vp} VP${d.card ? ` with ${w.name(d.card)}` : ''}.`;
    case 'ScoringFinished': return `${who} finishes scoring${d.vp ? ` with ${d.vp} VP more` : ''}.`;
    case 'GameOver': return `The game is over: ${d.vp.map((v, s) => `${w.who(s)} has ${v} VP`).join(', ')}.`;
    default: return null;
  }
}
