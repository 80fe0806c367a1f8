// Helpers shared by the board modules.
import { h, seatName } from '../util.js';

/** A piece of the board: a button that plays the first legal choice matching `match`, else a plain box. */
export function piece(ctx, match, attrs, ...children) {
  const choice = ctx.choices.find((c) => match(c.command));
  if (!choice) return h('div', attrs, ...children);
  return h('button', { ...attrs, type: 'button', class: `${attrs.class || ''} playable`, title: choice.label,
    'aria-label': choice.label, onclick: () => ctx.play(choice.command) }, ...children);
}

/** One box per seat, the viewer's own first. */
export function playerBoxes(ctx, players, body) {
  const order = [...players].sort((a, b) => (a.seat === ctx.me ? -1 : b.seat === ctx.me ? 1 : a.seat - b.seat));
  return h('div', { class: 'players' }, order.map((p) => {
    const seat = p.seat ?? players.indexOf(p);
    const acting = ctx.game && ctx.game.to_act && ctx.game.to_act.includes(seat);
    return h('section', { class: `player s${seat}${acting ? ' acting' : ''}`, 'aria-label': `Seat ${seat + 1}: ${seatName(ctx.seats[seat])}` },
      h('h3', {}, h('span', { class: 'dot', 'aria-hidden': 'true' }), seatName(ctx.seats[seat]), seat === ctx.me ? ' (you)' : ''),
      body(p, seat));
  }));
}
