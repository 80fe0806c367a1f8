// Fallback board for a game type without a board module: the view's top-level fields.
import { h } from '../util.js';

export function render(state) {
  return h('div', { class: 'generic' }, h('p', { class: 'muted' }, 'No board for this game type; its view:'),
    h('pre', {}, JSON.stringify(state, null, 1).slice(0, 20000)));
}
