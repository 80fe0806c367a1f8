// Puerto Rico: roles with their doubloons, cargo ships, trading house, supplies (plantations, quarries, colonists,
// goods, VP chips), the buildings for sale, and each player's island (plantations and quarries, colonists on them)
// and city (buildings with their circles, colonists in them). Pieces a legal move concerns are buttons.
import { h, title, counts, facts } from '../util.js';
import { piece, playerBoxes } from './common.js';

const GOODS = ['corn', 'indigo', 'sugar', 'tobacco', 'coffee'];

function island(p, ctx, mine) {
  const tiles = [];
  for (const [kind, { tiles: n, occupied }] of Object.entries(p.island || {})) {
    for (let i = 0; i < n; i += 1) {
      tiles.push(h('li', {}, piece(ctx, (c) => mine && c.type === 'place_colonist' && c.target === kind && i === occupied,
        { class: `tile c-${kind}${i < occupied ? ' manned' : ''}`, title: `${title(kind)}${i < occupied ? ', manned' : ', no colonist'}` },
        h('span', {}, title(kind)), h('span', { class: 'colonists', 'aria-label': i < occupied ? 'one colonist' : 'no colonist' }, i < occupied ? '●' : '○'))));
    }
  }
  return h('div', {}, h('h4', {}, `Island (${p.island_spaces_used}/12)`),
    tiles.length ? h('ul', { class: 'tiles' }, tiles) : h('p', { class: 'muted' }, 'empty'));
}

function city(p, ctx, mine) {
  const list = Object.entries(p.buildings || {}).map(([name, b]) => {
    const occupied = b.colonists ?? 0;
    const cap = b.circles ?? 0;
    return h('li', {}, piece(ctx, (c) => mine && c.type === 'place_colonist' && c.target === name,
      { class: `building${occupied ? ' manned' : ''}`, title: `${ctx.name(name)}: ${occupied} of ${cap} circles manned` },
      ctx.name(name), h('span', { class: 'colonists', 'aria-hidden': 'true' }, `${'●'.repeat(occupied)}${'○'.repeat(Math.max(0, cap - occupied))}`)));
  });
  return h('div', {}, h('h4', {}, `City (${p.city_spaces_used}/12)`),
    list.length ? h('ul', { class: 'buildings' }, list) : h('p', { class: 'muted' }, 'no buildings yet'));
}

export function render(s, ctx) {
  const cards = new Map((ctx.catalogue.components || []).map((c) => [c.id, c]));
  const roles = h('ul', { class: 'roles', 'aria-label': 'Roles' }, s.roles.map((r) => h('li', {},
    piece(ctx, (c) => c.type === 'select_role' && c.role === r.role, { class: `role${r.taken ? ' taken' : ''}${s.role === r.role ? ' current' : ''}` },
      h('strong', {}, title(r.role)),
      h('span', {}, r.taken ? 'taken' : r.doubloons ? `${'◉'.repeat(r.doubloons)} ${r.doubloons} doubloon${r.doubloons === 1 ? '' : 's'}` : 'no doubloon')))));
  const ships = h('ul', { class: 'ships', 'aria-label': 'Cargo ships' }, s.cargo_ships.map((ship, i) => h('li', {},
    piece(ctx, (c) => c.type === 'load' && c.ship === i, { class: `ship${ship.good ? ` c-${ship.good}` : ''}` },
      `Ship for ${ship.capacity}: `, ship.good ? `${ship.load} ${ship.good}` : 'empty',
      h('span', { class: 'hold', 'aria-hidden': 'true' }, '■'.repeat(ship.load) + '□'.repeat(ship.capacity - ship.load))))));
  const wharf = piece(ctx, (c) => c.type === 'ship_with_wharf', { class: 'ship wharf' }, 'Wharf');
  const trading = h('ul', { class: 'trading', 'aria-label': 'Trading house' },
    [0, 1, 2, 3].map((i) => h('li', {}, i === s.trading_house.length && ctx.choices.some((c) => c.command.type === 'sell')
      ? piece(ctx, (c) => c.type === 'sell', { class: 'slot' }, 'sell here')
      : h('div', { class: `slot${s.trading_house[i] ? ` c-${s.trading_house[i]}` : ''}` }, s.trading_house[i] ? title(s.trading_house[i]) : '—'))));
  const faceUp = h('ul', { class: 'tiles' }, Object.entries(s.face_up_plantations).flatMap(([kind, n]) => Array.from({ length: n }, () => h('li', {},
    piece(ctx, (c) => c.type === 'take_plantation' && c.plantation === kind, { class: `tile c-${kind}` }, title(kind))))),
  h('li', {}, piece(ctx, (c) => c.type === 'take_quarry' || c.type === 'draw_from_hacienda', { class: 'tile c-quarry' }, `Quarries: ${s.quarries}`)));
  // the supply as the board lays it out: by cost, then by name
  const byCost = ([a], [b]) => ((cards.get(a)?.cost ?? 99) - (cards.get(b)?.cost ?? 99)) || ctx.name(a).localeCompare(ctx.name(b));
  return h('div', { class: 'pr' },
    h('div', { class: 'row' },
      h('section', { class: 'panel' }, h('h3', {}, `Round ${s.round} · ${title(s.phase)}${s.role && title(s.role) !== title(s.phase) ? ` (${title(s.role)})` : ''}`), roles),
      h('section', { class: 'panel' }, h('h3', {}, 'Cargo ships'), ships, ctx.choices.some((c) => c.command.type === 'ship_with_wharf') ? wharf : null,
        h('h3', {}, 'Trading house'), trading),
      h('section', { class: 'panel' }, h('h3', {}, 'Plantations on offer'), faceUp,
        facts([
          ['Hidden plantations', s.face_down_stack_size],
          ['Colonist ship', piece(ctx, (c) => c.type === 'take_colonist', { class: 'inline-piece' }, `${s.colonist_ship} colonist${s.colonist_ship === 1 ? '' : 's'}`)],
          ['Colonists left', s.colonist_supply], ['VP chips left', s.vp_supply],
          ['Goods left', counts(s.goods_supply, true, GOODS)],
          s.end_triggers.length ? ['Game end', s.end_triggers.map(title).join(', ')] : null,
        ], 'Supplies'))),
    playerBoxes(ctx, s.players, (p, seat) => h('div', {},
      facts([
        ['Doubloons', p.doubloons ?? '?'], ['VP chips', p.vp_chips ?? 'hidden'], ['San Juan', `${p.san_juan} colonist${p.san_juan === 1 ? '' : 's'} waiting`],
        ['Goods', counts(p.goods, false, GOODS)], seat === s.governor ? ['Governor', 'yes'] : null,
      ], 'Player'),
      h('div', { class: 'row' }, island(p, ctx, seat === ctx.me), city(p, ctx, seat === ctx.me)))),
    h('section', { class: 'panel' }, h('h3', {}, 'Buildings for sale'),
      h('ul', { class: 'supply' }, Object.entries(s.building_supply).filter(([, n]) => n).sort(byCost).map(([name, n]) => {
        const card = cards.get(name) || {};
        return h('li', {}, piece(ctx, (c) => c.type === 'build' && c.building === name, { class: 'building-card', title: card.effect },
          h('strong', {}, ctx.name(name)), h('span', { class: 'tag' }, `${card.cost ?? '?'} doubloon${card.cost === 1 ? '' : 's'} · ${card.points ?? '?'} VP · ${n} left`)));
      }))));
}

// The event log in words.
const an = (word) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

export function sentence(e, w) {
  const d = e.data || {};
  const who = w.who(d.seat);
  const good = (g) => g;
  const goods = (obj) => w.list(Object.entries(obj || {}).filter(([, k]) => k).map(([g, k]) => `${k} ${good(g)}`), (x) => x) || 'nothing';
  switch (e.type) {
    case 'GameStarted': return `The game starts with ${w.n(d.seats, 'player')}.`;
    case 'PlantationStackShuffled': return 'The plantation tiles are shuffled.';
    case 'PlantationsDealt': return `New plantations are laid out: ${w.list(d.plantations, (x) => x)}.`;
    case 'PlantationsDiscarded': return `Unchosen plantations are discarded: ${w.list(d.plantations, (x) => x)}.`;
    case 'RoleSelected': return `${who} takes the ${d.role} role${d.doubloons ? ` and the ${w.n(d.doubloons, 'doubloon')} on it` : ''}${d.prospector_bonus ? ` (+${d.prospector_bonus} as prospector)` : ''}.`;
    case 'PlantationTaken': return `${who} takes ${an(d.plantation)} plantation.`;
    case 'QuarryTaken': return `${who} takes a quarry.`;
    case 'HaciendaPlantationDrawn': return `${who} draws ${an(d.plantation)} plantation with the hacienda.`;
    case 'BuildingBought': return `${who} builds the ${w.name(d.building).toLowerCase()} for ${w.n(d.price, 'doubloon')}.`;
    case 'MayorColonistTaken': return `${who} takes the mayor's extra colonist.`;
    case 'ColonistsDistributed': return `The colonist ship is unloaded: ${w.list(d.colonists.map((k, s) => `${w.who(s)} gets ${w.n(k, 'colonist')}`), (x) => x)}.`;
    case 'ColonistsGathered': return `${who} has ${w.n(d.colonists, 'colonist')} to place.`;
    case 'ColonistPlaced': return `${who} puts a colonist on ${GOODS.includes(d.target) ? `${an(d.target)} plantation` : d.target === 'quarry' ? 'a quarry' : `the ${w.name(d.target).toLowerCase()}`}.`;
    case 'ColonistsArranged': return `${who} is done placing colonists${d.san_juan ? ` (${d.san_juan} left in San Juan)` : ''}.`;
    case 'HospiceColonistPlaced': return `${who}'s hospice puts a colonist on the new ${d.tile} tile.`;
    case 'UniversityColonistPlaced': return `${who}'s university puts a colonist in the new building.`;
    case 'ColonistShipRefilled': return `The colonist ship is refilled with ${w.n(d.colonists, 'colonist')}${d.ends_game ? ' (too few left: the game will end)' : ''}.`;
    case 'GoodsProduced': return `Production: ${d.production.map((p) => `${w.who(p.seat)} gets ${goods(p.goods)}${p.factory_doubloons ? ` (and ${w.n(p.factory_doubloons, 'doubloon')} from the factory)` : ''}`).join('; ')}.`;
    case 'ExtraGoodTaken': return `${who} takes one more ${d.good} as craftsman.`;
    case 'GoodSold': return `${who} sells ${d.good} to the trading house for ${w.n(d.price, 'doubloon')}.`;
    case 'TradingHouseEmptied': return `The trading house is emptied (${w.list(d.goods, (x) => x)}).`;
    case 'GoodsShipped': return `${who} ships ${d.amount} ${d.good} on ship ${d.ship + 1} for ${w.n(d.vp, 'VP', 'VP')}.`;
    case 'GoodsShippedByWharf': return `${who} ships ${d.amount} ${d.good} with the wharf for ${w.n(d.vp, 'VP', 'VP')}.`;
    case 'ShipsUnloaded': return d.ships.length ? `Full ships are unloaded (${d.ships.map((i) => `ship ${i + 1}`).join(', ')}).` : 'No ship is full.';
    case 'BarrelKept': return `${who} keeps ${d.good}${Object.keys(d.discarded || {}).length ? `; ${goods(d.discarded)} spoil` : ''}.`;
    case 'WarehouseKindChosen': return `${who} stores ${d.good} in a warehouse.`;
    case 'Passed': return `${who} passes.`;
    case 'RoundEnded': return `Round ${d.round} ends${d.bonus_roles && d.bonus_roles.length ? `; a doubloon goes on ${w.list(d.bonus_roles, (x) => `the ${x}`)}` : ''}.`;
    case 'GameEnded': return `The game ends (${w.list(d.triggers, (x) => x.replace(/_/g, ' '))}): ${d.scores.map((v, s) => `${w.who(s)} has ${w.n(v, 'point')}`).join(', ')}.`;
    default: return null;
  }
}
