// Murano: the action ring with the ships on it, the islands with what is built on their spaces,
// the gondolas, each player's shops, beads, gondoliers and characters, and the supplies.
import { h, title, counts, facts } from '../util.js';
import { piece, playerBoxes } from './common.js';

function ring(s, ctx) {
  const shipAt = new Map(s.ships.map((pos, ship) => [pos, ship]));
  return h('ol', { class: 'ring', 'aria-label': 'Action ring' }, s.ring.map((action, space) => {
    const ship = shipAt.get(space);
    const isRed = ship === s.red_ship;
    return h('li', {}, piece(ctx, (c) => (c.type === 'move_ship' || c.type === 'pass') && c.to === space,
      { class: `space${ship !== undefined ? ' has-ship' : ''}` },
      h('span', { class: 'n' }, `${space}`), h('span', {}, title(action)),
      ship !== undefined ? h('span', { class: `ship${isRed ? ' red' : ''}` }, `ship ${ship}${isRed ? ' (red)' : ''}`) : null));
  }));
}

function islands(s, catalogue) {
  const byIsland = new Map(s.islands.map((name) => [name, []]));
  for (const piece of s.board || []) {
    const key = String(piece.space || piece.id || '').split(':')[0];
    if (!byIsland.has(key)) byIsland.set(key, []);
    byIsland.get(key).push(piece);
  }
  return h('div', { class: 'islands' }, [...byIsland.entries()].map(([name, pieces]) => h('section', { class: 'island' },
    h('h4', {}, title(name.toLowerCase())),
    pieces.length ? h('ul', { class: 'built' }, pieces.map((p) => h('li', {},
      `${p.space ? p.space.split(':')[1] : ''} ${title(p.kind || p.type || 'piece')}${p.face !== undefined && p.face !== null ? ` (${p.face})` : ''}${p.owner !== undefined && p.owner !== null ? ` · seat ${p.owner + 1}` : ''}`)))
      : h('p', { class: 'muted' }, 'nothing built yet'),
    (s.gondolas || []).filter((g) => String(g.island || g.space || '').startsWith(name)).length
      ? h('p', {}, `Gondolas: ${(s.gondolas || []).filter((g) => String(g.island || g.space || '').startsWith(name)).length}`) : null)));
}

export function render(s, ctx) {
  return h('div', { class: 'murano' },
    h('section', { class: 'panel' }, h('h3', {}, `Action ring · turn ${s.turns_played + 1}${s.end_triggered ? ' · final turns' : ''}`),
      ring(s, ctx),
      s.pending ? h('p', { class: 'muted' }, `Decision: ${title(String(s.pending.decision || '').toLowerCase())} (seat ${s.pending.seat + 1})`) : null),
    h('section', { class: 'panel' }, h('h3', {}, 'Islands'), islands(s, ctx.catalogue)),
    h('section', { class: 'panel' }, h('h3', {}, 'Supplies'), facts([
      ['Bead bag', counts(s.bag, true)], ['Supplies', counts(s.supplies, true)],
      s.empty_supplies.length ? ['Empty', s.empty_supplies.map(title).join(', ')] : null,
    ], 'Supplies')),
    playerBoxes(ctx, s.players, (p) => facts([
      ['Gold', p.gold ?? '?'], ['VP', p.vp ?? '?'], ['Beads', counts(p.beads, true)],
      ['Gondoliers', `${p.personal_gondoliers} personal · ${p.seated_gondoliers} seated · ${p.general_supply_gondoliers} hired`],
      ['Hand', p.hand && p.hand.length ? p.hand.map((x) => title(typeof x === 'string' ? x : (x.kind || JSON.stringify(x)))).join(', ') : counts(p.hand_counts)],
      ['Characters', p.characters && p.characters.length ? p.characters.join(', ') : `${p.character_count}`],
      p.special_cards && p.special_cards.length ? ['Special cards', p.special_cards.join(', ')] : null,
    ], 'Player')));
}

// The event log in words.
function where(w, space) {
  const [island, cell] = String(space).split(':');
  return `${w.name(island)} ${cell || ''}`.trim();
}

function tile(w, kind, face) {
  if (kind === 'shop') return face ? `a ${face} shop` : 'a shop';
  if (kind === 'palace') return face ? `a palace with ${w.n(face, 'crest')}` : 'a palace';
  if (kind === 'street') return face ? w.name(face).toLowerCase() : 'a street';
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
    case 'GameOver': return `The game is over: ${d.vp.map((v, s) => `${w.who(s)} ${v} VP`).join(', ')}.`;
    default: return null;
  }
}
