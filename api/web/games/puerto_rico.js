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
