// Archipelago: the hex map (each tile's land and sea, its resource icons and huts, whose units stand on it, its
// buildings; empty hexes where a tile may go), the domestic and export markets with their prices, the balance
// tracks (population, surplus, rebellion), the evolution market, the turn-order bids, and each player.
import { h, title, counts, facts, seatName } from '../util.js';
import { piece, playerBoxes, s as svg, svgPiece, track } from './common.js';

const RES = ['FRUIT', 'WOOD', 'CATTLE', 'STONE', 'FISH', 'IRON'];
const RES_NAMES = RES.map((r) => r.toLowerCase());  // the markets' order
const SIZE = 36;

function centre(q, r) {
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
}

function corners(x, y, size = SIZE) {
  return Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 180) * (60 * i - 30);
    return `${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}

function hexMap(st, ctx) {
  const tiles = st.tiles || [];
  const spots = new Map();
  for (const c of ctx.choices) {
    const pos = c.command.pos;
    if (pos && !tiles.some((t) => t.q === pos.q && t.r === pos.r)) spots.set(`${pos.q},${pos.r}`, pos);
  }
  if (!tiles.length && !spots.size) return h('p', { class: 'muted' }, 'No tile placed yet.');
  const units = new Map();
  for (const u of st.units || []) if (u.tile) units.set(u.tile, (units.get(u.tile) || []).concat(u));
  const all = [...tiles.map((t) => centre(t.q, t.r)), ...[...spots.values()].map((p) => centre(p.q, p.r))];
  const xs = all.map((c) => c[0]);
  const ys = all.map((c) => c[1]);
  const pad = SIZE + 4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const root = svg('svg', { viewBox: box.map((v) => v.toFixed(1)).join(' '), width: Math.round(box[2] * 1.9), class: 'hexmap', role: 'group', 'aria-label': `Map of ${tiles.length} tiles` });
  for (const pos of spots.values()) {
    const [x, y] = centre(pos.q, pos.r);
    root.append(svgPiece(ctx, (c) => c.pos && c.pos.q === pos.q && c.pos.r === pos.r, { class: 'hex spot' }, `Empty hex (${pos.q}, ${pos.r})`,
      svg('polygon', { points: corners(x, y, SIZE - 2) }), svg('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'hex-id' }, '+')));
  }
  for (const t of tiles) {
    const [x, y] = centre(t.q, t.r);
    const here = units.get(t.tile) || [];
    const owners = new Map();
    for (const u of here) {
      const k = owners.get(u.owner) || { citizen: 0, ship: 0 };
      k[u.kind] = (k[u.kind] || 0) + 1;
      owners.set(u.owner, k);
    }
    const marks = [];
    let i = 0;
    for (const [owner, k] of owners) {
      for (let n = 0; n < k.citizen; n += 1, i += 1) marks.push(svg('circle', { cx: x - 18 + (i % 7) * 6, cy: y + 14 + Math.floor(i / 7) * 6, r: 2.8, class: `unit s${owner}` }));
      for (let n = 0; n < k.ship; n += 1, i += 1) marks.push(svg('path', { d: `M ${x - 21 + (i % 7) * 6} ${y + 12 + Math.floor(i / 7) * 6} h 6 l -1.5 3.5 h -3 z`, class: `unit ship s${owner}` }));
    }
    const buildings = Object.keys(t.buildings || {});
    const said = `${t.tile}${t.has_land ? '' : ' (sea)'}: ${(t.icons || []).map((r) => r.toLowerCase()).join(', ') || 'no resources'}, ${t.huts} huts` +
      `${here.length ? `; ${[...owners].map(([o, k]) => `${seatName(ctx.seats[o])} ${k.citizen} citizens, ${k.ship} ships`).join('; ')}` : ''}` +
      `${buildings.length ? `; ${buildings.map((b) => b.toLowerCase()).join(', ')}` : ''}${t.controller !== null && t.controller !== undefined ? `; controlled by ${seatName(ctx.seats[t.controller])}` : ''}`;
    root.append(svgPiece(ctx, (c) => c.tile === t.tile || c.to === t.tile, { class: `hex${t.controller !== null && t.controller !== undefined ? ` s${t.controller}` : ''}` }, said,
      svg('polygon', { points: corners(x, y), class: t.has_land ? 'land' : 'sea' }),
      svg('text', { x, y: y - 16, 'text-anchor': 'middle', class: 'hex-id' }, t.tile),
      svg('text', { x, y: y - 4, 'text-anchor': 'middle', class: 'hex-icons' }, (t.icons || []).map((r) => r.slice(0, 2)).join(' ')),
      svg('text', { x, y: y + 7, 'text-anchor': 'middle', class: 'hex-b' }, [buildings.map((b) => b.slice(0, 4)).join(' '), t.huts ? ` ${'⌂'.repeat(Math.min(t.huts, 3))}` : ''].join('')),
      marks));
  }
  return h('div', {}, root, h('p', { class: 'legend muted' }, 'Two letters per resource icon (Fr fruit, Wo wood, Ca cattle, St stone, Fi fish, Ir iron), ⌂ huts, dots citizens and boats ships in their owner’s colour, a coloured border the controller; + an empty hex where a tile may go.'));
}

const lower = (obj) => Object.fromEntries(Object.entries(obj || {}).map(([k, v]) => [k.toLowerCase(), v]));

function marketRows(st, ctx, which) {
  const board = ctx.catalogue.board || {};
  const prices = which === 'DOM' ? board.domestic_prices || {} : board.export_prices || {};
  const held = which === 'DOM' ? st.domestic_market || {} : st.export_market || {};
  return h('table', { class: 'market-table' },
    h('caption', {}, which === 'DOM' ? 'Domestic market (cubes, with the price of each place)' : 'Export market'),
    h('tbody', {}, RES.map((r) => h('tr', {},
      h('th', { scope: 'row' }, piece(ctx, (c) => c.type === 'trade' && c.market === which && c.resource === r, { class: `res r-${r}` }, title(r.toLowerCase()))),
      (prices[r] || []).map((price, i) => h('td', { class: i < (held[r] || 0) ? `full r-${r}` : 'empty' }, `${price}`)),
      h('td', { class: 'k' }, `${held[r] || 0}`)))));
}

// The set-up turn's phase is TURN0 in the state: shown as the set-up it is.
const phaseTitle = (phase) => (String(phase || '').toUpperCase() === 'TURN0' ? 'Set-up' : title(String(phase || '').toLowerCase()));

export function render(st, ctx) {
  const market = h('ul', { class: 'supply', 'aria-label': 'Evolution market' }, (st.market || []).map((m) => h('li', {},
    piece(ctx, (c) => c.type === 'evo_buy' && c.slot === m.slot, { class: 'building-card evo', title: (ctx.catalogue.components || []).find((x) => x.id === m.card)?.effect },
      h('strong', {}, title(String(m.name).toLowerCase())), h('span', {}, `price ${m.price}${m.skulls ? ` · ${m.skulls} skulls` : ''}`)))));
  const a = st.auction || {};
  const limits = (ctx.catalogue.board || {}).limits || {};
  const top = Math.max(10, st.population || 0, st.rebellion || 0);
  return h('div', { class: 'archipelago' },
    h('section', { class: 'panel' }, h('h3', {}, `Round ${st.round} · ${phaseTitle(st.phase)}${st.prompt ? ` · ${title(String(st.prompt).replace(/^step_/, '').replace(/^turn0_?/i, '').replace(/_/g, ' ').trim())}` : ''}`),
      hexMap(st, ctx)),
    h('section', { class: 'panel' }, h('h3', {}, 'Balance'), h('div', { class: 'tracks' },
      track('Population', 0, top, [{ label: '', at: st.population, class: 'pop' }], ctx),
      track('Rebellion', 0, top, [{ label: '', at: st.rebellion, class: 'reb' }], ctx),
      track('Surplus', 0, limits.surplus_max || 20, [{ label: '', at: st.surplus, class: 'sur' }], ctx)),
      st.crisis ? h('p', { class: 'pending' }, `Crisis under way: ${ctx.codes.back_color?.[st.crisis.color] || JSON.stringify(st.crisis)}`) : null),
    h('div', { class: 'row' },
      h('section', { class: 'panel' }, h('h3', {}, 'Markets'), marketRows(st, ctx, 'DOM'), marketRows(st, ctx, 'EXP'),
        facts([['Bank', counts(lower(st.bank), true, RES_NAMES)]], 'Bank')),
      h('section', { class: 'panel' }, h('h3', {}, 'Evolution market'), market,
        h('h3', {}, 'Turn order and bids'), facts([
          ['Order', (st.order || []).map((x) => seatName(ctx.seats[x])).join(' → ')],
          ['Bidding', (a.bidders || []).length ? `${a.bidders.map((x) => seatName(ctx.seats[x])).join(', ')} (attempt ${a.attempt}; bids stay hidden until all are in)` : 'no bidding under way'],
          a.picker !== null && a.picker !== undefined ? ['Picking a place', seatName(ctx.seats[a.picker])] : null,
          (a.picked || []).length ? ['Picked', a.picked.map((x) => seatName(ctx.seats[x])).join(', ')] : null,
        ], 'Bids'))),
    playerBoxes(ctx, st.players, (p) => facts([
      ['Money', p.money ?? '?'], ['Cubes', counts(lower(p.cubes), false, RES_NAMES)], ['Action discs', `${p.ad_available} of ${p.ad_total} free`],
      ['Cards', (p.track || []).length ? p.track.map(ctx.name).join(', ') : `${p.cards_owned}`],
      ['Objectives', Array.isArray(p.objectives) ? objectiveList(p.objectives, ctx) : p.objectives ?? 'hidden'],
      ['In supply', `${p.supply_citizens ?? '?'} citizens, ${p.supply_ships ?? '?'} ships`],
      ['Tiles in hand', Array.isArray(p.hand) ? handList(p.hand) : p.hand ?? 'hidden'],
    ], 'Player')));
}

/** A seat's own objectives, each with what it asks (the catalogue's text), folded away until opened. */
function objectiveList(ids, ctx) {
  if (!ids.length) return 'none';
  const byId = new Map((ctx.catalogue.components || []).map((c) => [c.id, c]));
  return h('ul', { class: 'plain' }, ids.map((id) => h('li', {},
    h('details', {
      open: OPENED.has(id) ? true : null,  // the table is drawn again at every event: an opened one stays open
      ontoggle: (event) => { if (event.target.open) OPENED.add(id); else OPENED.delete(id); },
    }, h('summary', {}, ctx.name(id)), h('small', {}, byId.get(id)?.effect || '')))));
}
const OPENED = new Set();

/** The tiles in a seat's own hand with both faces: the icons (two letters each, as on the map) and huts, so that
 * "place tile E07 face B" can be chosen knowing what face B holds. */
function handList(hand) {
  if (!hand.length) return 'none';
  const face = (f) => `${(f.icons || []).map((r) => r.slice(0, 2)).join(' ') || 'no icons'}, ${f.huts} ⌂`;
  return h('ul', { class: 'plain' }, hand.map((x) => h('li', {}, `${x.tile || '?'}`,
    x.faces ? h('small', { class: 'muted' }, ` — A: ${face(x.faces.A)}; B: ${face(x.faces.B)}`) : null)));
}

/** Whom a log line is about: the event's seat, or for a step going on, the seat that goes on with it. */
export function subject(e) {
  return e.type === 'StepUpdated' ? e.seat : e.data && e.data.seat;
}

// The event log in words.
export function sentence(e, w) {
  const d = e.data || {};
  const who = w.who(d.seat);
  const res = (r) => String(r).toLowerCase();
  const signed = (x) => (x > 0 ? `+${x}` : `${x}`);
  switch (e.type) {
    case 'GameStarted': return `The game starts with ${w.n(d.seats, 'player')} (${d.options ? d.options.length : ''} game).`.replace(' ( game)', '');
    case 'EvolutionDeckShuffled': return 'The evolution deck is shuffled.';
    case 'EvolutionMarketDealt': return `The market is dealt: ${w.list(d.cards)}.`;
    case 'TrendsRevealed': return `Trends: ${w.list(d.trends)}.`;
    case 'ObjectivesDealt': return `${who} is dealt ${w.n(d.cards ? d.cards.length : d.count || 0, 'objective')}.`;
    case 'ObjectivesKept': return `${who} keeps their objectives.`;
    case 'ExplorationStackShuffled': case 'ExplorationStackReshuffled': return 'The exploration tiles are shuffled.';
    case 'StartTilePlaced': return `${who} places the start tile ${d.tile}.`;
    case 'ShipAdded': return `${who} gets a ship on ${d.tile}.`;
    case 'CitizenAdded': return `${who} gets a citizen on ${d.tile}${d.reason && d.reason !== 'start' ? ` (${d.reason})` : ''}.`;
    case 'ExplorerTokenTaken': return `${who} takes an explorer token.`;
    case 'SurplusChanged': return `Surplus ${signed(d.delta)}${d.reason ? ` (${d.reason})` : ''}.`;
    case 'RebellionChanged': return `Rebellion ${signed(d.delta)}${d.reason ? ` (${d.reason})` : ''}.`;
    case 'MarketIconChosen': return `${who} puts ${res(d.resource)} on the market.`;
    case 'OwnIconChosen': return `${who} takes ${res(d.resource)}.`;
    case 'RoundStarted': return `Round ${d.round} begins.`;
    case 'RoundEnded': return `Round ${d.round} ends.`;
    case 'BiddingStarted': return 'Bidding for turn order begins.';
    case 'BidCommitted': return `${who} places a bid${d.amount !== undefined && d.amount !== null ? ` of ${d.amount}` : ''}.`;
    case 'BidsRevealed': return `Bids: ${d.bids.map((b) => `${w.who(b.seat)} bids ${b.amount}`).join(', ')}.`;
    case 'AuctionWon': return `${who} wins the bidding.`;
    case 'OrderPicked': return `${who} puts ${d.picked === d.seat ? 'themselves' : w.who(d.picked)} next in the turn order.`;
    case 'TurnOrderSet': return `Turn order: ${w.list(d.order, (s) => w.who(s))}.`;
    case 'PhaseStarted': { const p = w.name(d.phase); return `${p.charAt(0).toUpperCase()}${p.slice(1)} begins.`; }
    case 'Turn0Started': return 'The players set up their first tiles.';
    case 'Turn0HandDealt': return `${who} is dealt start tiles.`;
    case 'Turn0PlayerDone': return `${who} is set up.`;
    case 'ObjectiveChoiceStarted': return 'The players choose their objectives.';
    case 'TurnStarted': return `${who}'s turn.`;
    case 'TurnEnded': return `${who} ${d.passed ? 'passes' : 'ends the turn'}.`;
    case 'ActionStarted': return `${who} chooses ${w.name(d.action).toLowerCase()}.`;
    case 'StepUpdated': return `${w.who(e.seat)} goes on with the action.`;
    case 'StepClosed': return `${who} finishes the action.`;
    case 'SkullsRemoved': return 'Skulls are cleared from the market.';
    case 'RedCheckDone': return 'The deck is checked for a crisis.';
    case 'EvolutionStepDone': return `${who} is done with the evolution market.`;
    case 'CubesGained': return `${who} gains ${d.count} ${res(d.resource)}${d.reason ? ` (${d.reason})` : ''}.`;
    case 'CubesPaid': return `${who} pays ${[...Object.entries(d.cubes || {}).map(([r, k]) => `${k} ${res(r)}`), d.money ? w.n(d.money, 'coin') : null].filter(Boolean).join(', ') || 'nothing'}${d.reason ? ` to ${d.reason}` : ''}.`;
    case 'MoneyChanged': return `${who} ${d.delta >= 0 ? 'gains' : 'pays'} ${w.n(Math.abs(d.delta), 'coin')}${d.reason ? ` (${d.reason})` : ''}.`;
    case 'MarketTraded': return `${who} ${d.op === 'BUY' ? 'buys' : 'sells'} ${res(d.resource)} on the ${d.market === 'EXP' ? 'export' : 'domestic'} market for ${d.price}.`;
    case 'EvolutionBought': return `${who} buys ${w.name(d.card)} for ${d.price}.`;
    case 'EvolutionRotated': return 'The evolution market turns.';
    case 'SlotRefilled': return `${w.name(d.card)} comes into the market.`;
    case 'CardSkulled': return `${w.name(d.card)} gets a skull.`;
    case 'CardUsed': return `${who} uses ${w.name(d.card)}.`;
    case 'CardDiscarded': return `${who} discards ${w.name(d.card)}.`;
    case 'TileDrawn': return `${who} draws exploration tile ${d.tile}.`;
    case 'TilePlaced': return `${who} places tile ${d.tile} at (${d.pos.q}, ${d.pos.r}).`;
    case 'TileDiscarded': return `${who} discards the drawn tile.`;
    case 'BuildingBuilt': return `${who} builds a ${w.name(d.building).toLowerCase()} on ${d.tile}.`;
    case 'BuildingAbilityUsed': return `${who} uses the ${w.name(d.building).toLowerCase()} on ${d.tile}.`;
    case 'UnitAssigned': return `${who} sends a citizen to harvest.`;
    case 'UnitMoved': return `${who} moves a unit${d.to ? ` to ${d.to}` : ''}.`;
    case 'CitizenStood': return `${who}'s citizen stands up.`;
    case 'CitizenSacrificed': return `${who} loses a citizen.`;
    case 'CrisisStarted': return `A ${d.color === 'RED' ? 'crisis' : `${String(d.color).toLowerCase()} event`} begins.`;
    case 'CrisisEnded': return 'The crisis is over.';
    case 'DomesticDemandStarted': return `Domestic demand for ${res(d.resource)}.`;
    case 'ExportDemandStarted': return `Export demand: ${w.list(d.units, res)}.`;
    case 'CubeSupplied': return `${who} supplies ${res(d.resource)}.`;
    case 'SupplyTurnEnded': return `${who} is done supplying.`;
    case 'DemandResolved': return `The demand is settled${d.rebellion ? `: rebellion +${d.rebellion}` : ''}.`;
    case 'BeigeEventApplied': return `Event: ${w.name(d.event).toLowerCase()}.`;
    case 'OfferOpened': return `${who} opens a trade offer to ${w.who(d.to)}.`;
    case 'OfferItemAdded': return `${who} adds ${value(d.item)} to ${d.side === 'GIVE' ? 'give' : 'get'}.`;
    case 'OfferSent': return `${who} sends the trade offer.`;
    case 'OfferAccepted': return `${who} accepts the trade.`;
    case 'OfferClosed': return `The trade offer is ${d.accepted ? 'accepted' : d.cancelled ? 'withdrawn' : 'declined'}.`;
    case 'CardsRevealed': return `${who} reveals ${w.list(d.cards)} from the deck with ${w.name(d.card)}.`;
    case 'CartographerLooked': return `${who} looks at the top ${w.n(d.count, 'exploration tile')}.`;
    case 'CubesToMarket': return `${who} gives ${w.list(d.resources, res)} to the market${d.reason ? ` (${d.reason})` : ''}.`;
    case 'DiscardRequired': return `${who} has too many evolution cards and must discard one.`;
    case 'EvolutionStepSkipped': return `${who} skips the evolution market.`;
    case 'ObjectivesLaidOut': return `Objectives are laid out: ${w.list(d.cards)}.`;
    case 'ResearchPicked': return d.pick === null || d.pick === undefined ? `${who} takes none of the revealed cards.` : `${who} takes ${w.name(d.pick)}${d.price ? ` for ${w.n(d.price, 'coin')}` : ''}.`;
    case 'SetAsidePileRecycled': return 'The set-aside start tiles are shuffled back.';
    case 'TempleActivated': return `${who} opens the temple on ${d.tile}${d.priest ? ` (the priest stands ${w.n(d.priest, 'citizen')} up)` : ''}.`;
    case 'TempleClosed': return `${who} is done with the temple.`;
    case 'Turn0HandSetAside': return `${who} sets aside ${w.n((d.tiles || []).length, 'start tile')} and draws again.`;
    case 'UnitEngaged': return `A ship (${d.unit}) is engaged.`;
    case 'UnitHoused': return `${who} moves a citizen into the ${w.name(d.building).toLowerCase()} on ${d.tile}.`;
    case 'UnitLeftBuilding': return `${who}'s citizen leaves its building.`;
    case 'GameEnded': return `The game ends${d.cause === 'DECLARED' ? ` (${w.who(d.declarer)} declares an objective)` : ''}: ${w.list(d.winners, (s) => w.who(s))} ${d.winners.length === 1 ? 'wins' : 'win'}.`;
    default: return null;
  }
}

function value(item) {
  return Object.values(item || {}).map((x) => String(x).toLowerCase()).join(' ');
}
