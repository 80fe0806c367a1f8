// The event log in words: each game's board module may export `sentence(event, words)` for its event types;
// anything it does not know is told from the event's type and fields, with names from the catalogue.
import { title, seatName } from './util.js';

const SKIP = new Set(['type', 'seat']);

/** Names for the codes of a game type: component ids (C01, SB03, ...) and the catalogue's code tables. */
export function namer(type) {
  const names = new Map();
  const catalogue = (type && type.catalogue) || {};
  for (const [group, table] of Object.entries(catalogue.codes || {})) {
    if (['command_field', 'id_patterns', 'formula_symbol', 'grid_cell', 'square', 'decision', 'stage'].includes(group)) continue;
    if (!table || typeof table !== 'object') continue;
    for (const [code, text] of Object.entries(table)) {
      if (typeof text === 'string' && text.length <= 40 && !names.has(code)) names.set(code, text);
    }
  }
  for (const c of catalogue.components || []) if (c.id !== undefined && c.name) names.set(String(c.id), c.name);
  return (code) => {
    if (code === null || code === undefined) return '';
    const key = String(code);
    if (names.has(key)) return names.get(key);
    return /^[A-Z_]+$/.test(key) || /_/.test(key) ? title(key.toLowerCase()) : key;
  };
}

/** The helpers a game's sentences use: who(seat), name(code), list([...]), n(count, word). */
export function words(type, seats) {
  const name = namer(type);
  const who = (seat) => (seat === null || seat === undefined ? 'The game' : seatName(seats[seat]) || `Seat ${seat + 1}`);
  const list = (items, fn = name) => {
    const parts = (items || []).map(fn);
    if (parts.length <= 1) return parts.join('');
    return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  };
  const n = (count, word, many) => `${count} ${count === 1 ? word : (many || `${word}s`)}`;
  return { name, who, list, n, seats };
}

function value(v, w) {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.length > 6 ? `${v.length} items` : w.list(v, (x) => value(x, w));
  if (typeof v === 'object') {
    const parts = Object.entries(v).filter(([, x]) => x !== null && x !== undefined && typeof x !== 'object')
      .map(([k, x]) => `${k.replace(/_/g, ' ')} ${w.name(x)}`);
    return parts.slice(0, 4).join(', ');
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return w.name(v);
}

/** The sentence for an event built from its type and fields, when the game has no sentence of its own. */
export function plainSentence(event, w) {
  const data = event.data || {};
  const subject = data.seat !== undefined && data.seat !== null ? w.who(data.seat) : null;
  const what = title(event.type.replace(/([a-z0-9])([A-Z])/g, '$1 $2')).toLowerCase();
  const bits = [];
  for (const [key, v] of Object.entries(data)) {
    if (SKIP.has(key) || v === null || v === undefined) continue;
    const text = value(v, w);
    if (!text || text.length > 60) continue;
    bits.push(`${key.replace(/_/g, ' ')} ${text}`);
    if (bits.length >= 4) break;
  }
  const head = subject ? `${subject}: ${what}` : what.charAt(0).toUpperCase() + what.slice(1);
  return `${head}${bits.length ? ` (${bits.join('; ')})` : ''}.`;
}

/** The server's own facts (timeouts, resignations, undo votes, endings): the same words in every game. */
export const PLATFORM_SENTENCES = {
  'platform.SeatTimedOut': (d, w) => `${w.who(d.seat)} runs out of time${d.policy === 'forfeit' ? ' and forfeits' : ''}; a ${d.level || 'bot'} bot plays on for the seat.`,
  'platform.Resigned': (d, w) => `${w.who(d.seat)} resigns${d.on_resign === 'lose' ? ' and is ranked last' : ''}; a ${d.level || 'bot'} bot plays on for the seat.`,
  'platform.UndoRequested': (d, w) => `${w.who(d.by)} asks to take the game back to move ${d.to_version}${d.reason ? ` (${d.reason})` : ''}.`,
  'platform.UndoAccepted': (d, w) => `${w.who(d.seat)} agrees to the undo.`,
  'platform.UndoDeclined': (d, w) => `${w.who(d.seat)} declines the undo.`,
  'platform.Aborted': () => 'The game is aborted by its creator.',
  'platform.GameAbandoned': () => 'The game is abandoned: nobody moved for too long.',
  'platform.GameFinished': () => 'The result is recorded.',
};

/** One sentence a player reads for an event of the log. */
export function eventText(event, board, w) {
  const platform = PLATFORM_SENTENCES[event.type];
  if (platform) {
    try {
      return platform(event.data || {}, w);
    } catch {
      // fall through to the plain sentence
    }
  }
  if (board && board.sentence) {
    try {
      const text = board.sentence(event, w);
      if (text) return text;
    } catch {
      // an event shaped unlike what the module expects: tell it plainly
    }
  }
  return plainSentence(event, w);
}
