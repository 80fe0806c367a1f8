// One line of text for an event of the log: its type and its most telling fields.
import { title } from './util.js';

export function eventText(event) {
  const data = event.data || {};
  const bits = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'type' || key === 'seat' || value === null || value === undefined) continue;
    if (typeof value === 'object') {
      const text = JSON.stringify(value);
      if (text.length <= 40) bits.push(`${key}: ${text}`);
      continue;
    }
    bits.push(`${key}: ${value}`);
    if (bits.length >= 4) break;
  }
  return `${title(event.type)}${bits.length ? ` (${bits.join(', ')})` : ''}`;
}
