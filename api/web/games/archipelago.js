// Archipelago: the hex map (tiles with their land/sea, controller and citizens), the market of
// evolution cards, the balance tracks (population, surplus, rebellion, markets), the bids, and players.
import { h, title, counts, facts } from '../util.js';
import { piece, playerBoxes } from './common.js';

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function hexMap(state) {
  const size = 34;
  const tiles = state.tiles || [];
  if (!tiles.length) return h('p', { class: 'muted' }, 'No tile placed yet.');
  const units = new Map();
  for (const u of state.units || []) if (u.tile) units.set(u.tile, (units.get(u.tile) || []).concat(u));
  const centre = (t) => [size * Math.sqrt(3) * (t.q + t.r / 2), size * 1.5 * t.r];
  const xs = tiles.map((t) => centre(t)[0]);
  const ys = tiles.map((t) => centre(t)[1]);
  const pad = size + 4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const svg = s('svg', { viewBox: box.join(' '), width: Math.round(box[2] * 1.5), height: Math.round(box[3] * 1.5), class: 'hexmap', role: 'img', 'aria-label': `Map of ${tiles.length} tiles` });
  for (const t of tiles) {
    const [x, y] = centre(t);
    const corners = Array.from({ length: 6 }, (_, i) => {
      const a = (Math.PI / 180) * (60 * i - 30);
      return `${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`;
    }).join(' ');
    const here = units.get(t.tile) || [];
    const g = s('g', { class: `hex${t.controller !== null && t.controller !== undefined ? ` s${t.controller}` : ''}` },
      s('title', {}, `${t.tile} face ${t.face}: ${t.huts} huts, ${(t.icons || []).join(', ')}; ${here.length} units${t.controller !== null && t.controller !== undefined ? `; seat ${t.controller + 1} controls` : ''}`),
      s('polygon', { points: corners, class: t.has_land ? 'land' : 'sea' }),
      s('text', { x, y: y - 8, 'text-anchor': 'middle', class: 'hex-id' }, t.tile),
      s('text', { x, y: y + 6, 'text-anchor': 'middle', class: 'hex-icons' }, (t.icons || []).map((i) => i[0] + i.slice(1, 2).toLowerCase()).join(' ')),
      s('text', { x, y: y + 20, 'text-anchor': 'middle', class: 'hex-units' }, here.length ? `${here.length} unit${here.length === 1 ? '' : 's'}` : ''));
    svg.append(g);
  }
  return svg;
}

export function render(st, ctx) {
  const market = h('ul', { class: 'supply', 'aria-label': 'Market' }, (st.market || []).map((m) => h('li', {},
    piece(ctx, (c) => c.type === 'evo_buy' && c.slot === m.slot, { class: 'building-card' }, `${title(String(m.name).toLowerCase())} · ${m.price}$`))));
  const a = st.auction || {};
  return h('div', { class: 'archipelago' },
    h('section', { class: 'panel' }, h('h3', {}, `Round ${st.round} · ${title(String(st.phase || '').toLowerCase())}${st.prompt ? ` · ${title(st.prompt)}` : ''}`),
      hexMap(st)),
    h('div', { class: 'row' },
      h('section', { class: 'panel' }, h('h3', {}, 'Balance'), facts([
        ['Population', st.population], ['Surplus', st.surplus], ['Rebellion', st.rebellion],
        ['Domestic market', counts(st.domestic_market, true)], ['Export market', counts(st.export_market, true)],
        ['Bank', counts(st.bank, true)], st.crisis ? ['Crisis', JSON.stringify(st.crisis)] : null,
      ], 'Balance tracks')),
      h('section', { class: 'panel' }, h('h3', {}, 'Market'), market,
        h('h3', {}, 'Turn order bids'), facts([
          ['Order', (st.order || []).map((x) => `seat ${x + 1}`).join(' → ')],
          ['Bidders', (a.bidders || []).map((x) => `seat ${x + 1}`).join(', ') || 'none'],
          a.picker !== null && a.picker !== undefined ? ['Picking', `seat ${a.picker + 1}`] : null,
        ], 'Bids'))),
    playerBoxes(ctx, st.players, (p) => facts([
      ['Money', p.money ?? '?'], ['Cubes', counts(p.cubes)], ['Action discs', `${p.ad_available}/${p.ad_total}`],
      ['Cards', p.cards_owned], ['Objectives', Array.isArray(p.objectives) ? (p.objectives.join(', ') || 'none') : p.objectives ?? 'hidden'],
      ['Tiles in hand', Array.isArray(p.hand) ? p.hand.map((x) => x.tile || '?').join(', ') || 'none' : p.hand ?? 'hidden'],
    ], 'Player')));
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
    case 'BidsRevealed': return `Bids: ${d.bids.map((b) => `${w.who(b.seat)} ${b.amount}`).join(', ')}.`;
    case 'AuctionWon': return `${who} wins the bidding.`;
    case 'OrderPicked': return `${who} picks place ${d.picked + 1} in the turn order.`;
    case 'TurnOrderSet': return `Turn order: ${w.list(d.order, (s) => w.who(s))}.`;
    case 'PhaseStarted': return `The ${w.name(d.phase).toLowerCase()} phase begins.`;
    case 'TurnStarted': return `${who}'s turn.`;
    case 'TurnEnded': return `${who} ${d.passed ? 'passes' : 'ends the turn'}.`;
    case 'ActionStarted': return `${who} chooses ${w.name(d.action).toLowerCase()}.`;
    case 'StepUpdated': case 'StepClosed': case 'SkullsRemoved': case 'RedCheckDone': case 'EvolutionStepDone': return null;
    case 'CubesGained': return `${who} gains ${d.count} ${res(d.resource)}${d.reason ? ` (${d.reason})` : ''}.`;
    case 'CubesPaid': return `${who} pays ${[...Object.entries(d.cubes || {}).map(([r, k]) => `${k} ${res(r)}`), d.money ? `${d.money} coins` : null].filter(Boolean).join(', ') || 'nothing'}${d.reason ? ` to ${d.reason}` : ''}.`;
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
    case 'GameEnded': return `The game ends${d.cause === 'DECLARED' ? ` (${w.who(d.declarer)} declares an objective)` : ''}: ${w.list(d.winners, (s) => w.who(s))} ${d.winners.length === 1 ? 'wins' : 'win'}.`;
    default: return null;
  }
}

function value(item) {
  return Object.values(item || {}).map((x) => String(x).toLowerCase()).join(' ');
}
