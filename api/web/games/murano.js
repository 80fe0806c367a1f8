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
