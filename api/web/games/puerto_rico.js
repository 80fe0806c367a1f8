// Puerto Rico: roles with their doubloons, cargo ships, trading house, supplies, and each player's
// island (plantations and quarries, colonists on them) and city (buildings, colonists in them).
import { h, title, counts, facts } from '../util.js';
import { piece, playerBoxes } from './common.js';

const GOODS = ['corn', 'indigo', 'sugar', 'tobacco', 'coffee'];

function island(p) {
  const tiles = [];
  for (const [kind, { tiles: n, occupied }] of Object.entries(p.island || {})) {
    for (let i = 0; i < n; i += 1) {
      tiles.push(h('li', { class: `tile c-${kind}${i < occupied ? ' manned' : ''}`, title: `${title(kind)}${i < occupied ? ', manned' : ''}` },
        h('span', {}, title(kind)), i < occupied ? h('span', { class: 'colonist', 'aria-label': 'colonist' }, '●') : null));
    }
  }
  return h('div', {}, h('h4', {}, `Island (${p.island_spaces_used}/12)`),
    tiles.length ? h('ul', { class: 'tiles' }, tiles) : h('p', { class: 'muted' }, 'empty'));
}

function city(p) {
  const list = Object.entries(p.buildings || {}).map(([name, b]) => {
    const occupied = typeof b === 'object' && b !== null ? (b.occupied ?? b.colonists ?? 0) : 0;
    const cap = typeof b === 'object' && b !== null ? (b.capacity ?? b.slots ?? '') : '';
    return h('li', { class: `building${occupied ? ' manned' : ''}` }, title(name),
      h('span', { class: 'colonists' }, ` ${'●'.repeat(occupied)}${cap ? '○'.repeat(Math.max(0, cap - occupied)) : ''}`));
  });
  return h('div', {}, h('h4', {}, `City (${p.city_spaces_used}/12)`),
    list.length ? h('ul', { class: 'buildings' }, list) : h('p', { class: 'muted' }, 'no buildings yet'));
}

export function render(s, ctx) {
  const roles = h('ul', { class: 'roles', 'aria-label': 'Roles' }, s.roles.map((r) => h('li', {},
    piece(ctx, (c) => c.type === 'select_role' && c.role === r.role, { class: `role${r.taken ? ' taken' : ''}` },
      h('strong', {}, title(r.role)),
      h('span', {}, r.taken ? 'taken' : `${r.doubloons} doubloon${r.doubloons === 1 ? '' : 's'}`)))));
  const ships = h('ul', { class: 'ships', 'aria-label': 'Cargo ships' }, s.cargo_ships.map((ship, i) => h('li', {},
    piece(ctx, (c) => c.type === 'load' && c.ship === i, { class: `ship${ship.good ? ` c-${ship.good}` : ''}` },
      `Ship ${ship.capacity}: `, ship.good ? `${ship.load} ${title(ship.good)}` : 'empty',
      h('span', { class: 'hold', 'aria-hidden': 'true' }, '■'.repeat(ship.load) + '□'.repeat(ship.capacity - ship.load))))));
  const trading = h('ul', { class: 'trading', 'aria-label': 'Trading house' },
    [0, 1, 2, 3].map((i) => h('li', { class: `slot${s.trading_house[i] ? ` c-${s.trading_house[i]}` : ''}` }, s.trading_house[i] ? title(s.trading_house[i]) : '—')));
  const faceUp = h('ul', { class: 'tiles' }, Object.entries(s.face_up_plantations).flatMap(([kind, n]) => Array.from({ length: n }, () => h('li', {},
    piece(ctx, (c) => c.type === 'take_plantation' && c.plantation === kind, { class: `tile c-${kind}` }, title(kind))))));
  return h('div', { class: 'pr' },
    h('div', { class: 'row' },
      h('section', { class: 'panel' }, h('h3', {}, `Round ${s.round} · ${title(s.phase)}${s.role ? ` (${title(s.role)})` : ''}`), roles),
      h('section', { class: 'panel' }, h('h3', {}, 'Cargo ships'), ships, h('h3', {}, 'Trading house'), trading),
      h('section', { class: 'panel' }, h('h3', {}, 'Plantations on offer'), faceUp,
        facts([
          ['Quarries', s.quarries], ['Hidden plantations', s.face_down_stack_size],
          ['Colonist ship', s.colonist_ship], ['Colonists', s.colonist_supply], ['VP chips', s.vp_supply],
          ['Goods', counts(Object.fromEntries(GOODS.map((g) => [g, s.goods_supply[g]])), true)],
          s.end_triggers.length ? ['Game end', s.end_triggers.map(title).join(', ')] : null,
        ], 'Supplies'))),
    playerBoxes(ctx, s.players, (p, seat) => h('div', {},
      facts([
        ['Doubloons', p.doubloons ?? '?'], ['VP chips', p.vp_chips ?? 'hidden'], ['San Juan', p.san_juan],
        ['Goods', counts(p.goods)], seat === s.governor ? ['Governor', 'yes'] : null,
      ], 'Player'),
      h('div', { class: 'row' }, island(p), city(p)))),
    h('section', { class: 'panel' }, h('h3', {}, 'Buildings for sale'),
      h('ul', { class: 'supply' }, Object.entries(s.building_supply).filter(([, n]) => n).map(([name, n]) => h('li', {},
        piece(ctx, (c) => c.type === 'build' && c.building === name, { class: 'building-card' }, `${title(name)} ×${n}`))))));
}

// The event log in words.
export function sentence(e, w) {
  const d = e.data || {};
  const who = w.who(d.seat);
  const good = (g) => g;
  const goods = (obj) => w.list(Object.entries(obj || {}).filter(([, k]) => k).map(([g, k]) => `${k} ${good(g)}`), (x) => x) || 'nothing';
  switch (e.type) {
    case 'GameStarted': return `The game starts with ${w.n(d.seats, 'player')}.`;
    case 'PlantationStackShuffled': return 'The plantation tiles are shuffled.';
    case 'PlantationsDealt': return `New plantations are laid out: ${w.list(d.plantations)}.`;
    case 'PlantationsDiscarded': return `Unchosen plantations are discarded: ${w.list(d.plantations)}.`;
    case 'RoleSelected': return `${who} takes the ${d.role} role${d.doubloons ? ` and the ${w.n(d.doubloons, 'doubloon')} on it` : ''}${d.prospector_bonus ? ` (+${d.prospector_bonus} as prospector)` : ''}.`;
    case 'PlantationTaken': return `${who} takes a ${d.plantation} plantation.`;
    case 'QuarryTaken': return `${who} takes a quarry.`;
    case 'HaciendaPlantationDrawn': return `${who} draws a ${d.plantation} plantation with the hacienda.`;
    case 'BuildingBought': return `${who} builds the ${w.name(d.building).toLowerCase()} for ${w.n(d.price, 'doubloon')}.`;
    case 'MayorColonistTaken': return `${who} takes the mayor's extra colonist.`;
    case 'ColonistsDistributed': return `The colonist ship is unloaded: ${d.colonists.map((k, s) => `${w.who(s)} ${k}`).join(', ')}.`;
    case 'ColonistsGathered': return `${who} has ${w.n(d.colonists, 'colonist')} to place.`;
    case 'ColonistPlaced': return `${who} puts a colonist on ${w.name(d.target).toLowerCase()}.`;
    case 'ColonistsArranged': return `${who} is done placing colonists${d.san_juan ? ` (${d.san_juan} left in San Juan)` : ''}.`;
    case 'HospiceColonistPlaced': return `${who}'s hospice puts a colonist on the new ${d.tile} tile.`;
    case 'UniversityColonistPlaced': return `${who}'s university puts a colonist in the new building.`;
    case 'ColonistShipRefilled': return `The colonist ship is refilled with ${w.n(d.colonists, 'colonist')}${d.ends_game ? ' (too few left: the game will end)' : ''}.`;
    case 'GoodsProduced': return `Production: ${d.production.map((p) => `${w.who(p.seat)} ${goods(p.goods)}${p.factory_doubloons ? ` and ${p.factory_doubloons} from the factory` : ''}`).join('; ')}.`;
    case 'ExtraGoodTaken': return `${who} takes one more ${d.good} as craftsman.`;
    case 'GoodSold': return `${who} sells ${d.good} to the trading house for ${w.n(d.price, 'doubloon')}.`;
    case 'TradingHouseEmptied': return `The trading house is emptied (${w.list(d.goods)}).`;
    case 'GoodsShipped': return `${who} ships ${d.amount} ${d.good} on ship ${d.ship + 1} for ${w.n(d.vp, 'VP', 'VP')}.`;
    case 'GoodsShippedByWharf': return `${who} ships ${d.amount} ${d.good} with the wharf for ${w.n(d.vp, 'VP', 'VP')}.`;
    case 'ShipsUnloaded': return d.ships.length ? `Full ships are unloaded (${d.ships.map((i) => `ship ${i + 1}`).join(', ')}).` : 'No ship is full.';
    case 'BarrelKept': return `${who} keeps ${d.good}${Object.keys(d.discarded || {}).length ? `; ${goods(d.discarded)} spoil` : ''}.`;
    case 'WarehouseKindChosen': return `${who} stores ${d.good} in a warehouse.`;
    case 'Passed': return `${who} passes.`;
    case 'RoundEnded': return `Round ${d.round} ends${d.bonus_roles && d.bonus_roles.length ? `; a doubloon goes on ${w.list(d.bonus_roles)}` : ''}.`;
    case 'GameEnded': return `The game ends (${w.list(d.triggers)}): ${d.scores.map((v, s) => `${w.who(s)} ${v}`).join(', ')} points.`;
    default: return null;
  }
}
