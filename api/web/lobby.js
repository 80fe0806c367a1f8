// The lobby: hosted game types with their options, a form to create a game, and the list of games.
import { h, fill, api, title, seatName, rememberSeat, rememberInvites, rememberSetup, toast } from './util.js';

export async function showLobby(main) {
  document.title = 'Tradewinds — lobby';
  const [{ data: types }, active, ...ended] = await Promise.all([
    api('GET', '/game-types'),
    api('GET', '/games?status=active&limit=30'),
    ...ENDED.map((status) => api('GET', `/games?status=${status}&limit=30`)),
  ]);
  // the games that ended, by any of the ways a game ends, newest first
  const endedGames = ended.flatMap((r) => r.data.games)
    .sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, 30);
  const hosted = types.filter((t) => !t.name.startsWith('secret'));
  fill(main,
    h('h1', {}, 'Lobby'),
    h('section', { class: 'panel', 'aria-labelledby': 'new-game' },
      h('h2', { id: 'new-game' }, 'New game'),
      createForm(hosted)),
    h('section', { class: 'panel', 'aria-labelledby': 'active-games' },
      h('h2', { id: 'active-games' }, 'Active games'), gameList(active.data.games, types)),
    h('section', { class: 'panel', 'aria-labelledby': 'ended-games' },
      h('h2', { id: 'ended-games' }, 'Ended games'), gameList(endedGames, types)),
  );
}

const ENDED = ['finished', 'aborted', 'abandoned'];
// How a game that ended without a result is told in the lists.
const ENDING = { aborted: 'aborted', abandoned: 'abandoned: nobody moved for too long' };
const NAME_KEY = 'tradewinds:name';

function typeTitle(types, name) {
  const t = types.find((x) => x.name === name);
  return t ? t.title : title(name);
}

function gameList(games, types) {
  if (!games.length) return h('p', { class: 'muted' }, 'None yet.');
  const seated = (g) => Boolean(localStorage.getItem(`tradewinds:seat:${g.id}`));
  const ordered = [...games.filter(seated), ...games.filter((g) => !seated(g))];  // this browser's games first
  return h('ul', { class: 'games' }, ordered.map((g) => {
    const mine = seated(g);
    const who = g.seats.map(seatName).join(', ');
    // The game on one line and what is known of it on the next, so that a narrow screen wraps neither mid-list.
    return h('li', {},
      h('div', { class: 'game-text' },
        h('div', { class: 'game-title' }, mine ? h('strong', { class: 'tag' }, 'yours') : null,
          `${typeTitle(types, g.game_type)} — ${who}`),
        h('div', { class: 'game-facts muted' }, `move ${g.version} · ${new Date(g.created_at).toLocaleString()}`,
          ENDING[g.status] ? h('span', { class: 'ending' }, ` · ${ENDING[g.status]}`) : null)),
      h('span', { class: 'links' },
        mine && g.status === 'active' ? h('a', { class: 'button', href: `/?game=${g.id}` }, 'Play') : null,
        h('a', { class: 'button secondary', href: `/?game=${g.id}#watch`, 'aria-label': `Watch game ${g.id}` }, 'Watch'),
        h('a', { class: 'button secondary', href: `/?replay=${g.id}`, 'aria-label': `Replay game ${g.id}` }, 'Replay')));
  }));
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.type === 'boolean') {
    input = h('input', { type: 'checkbox', id, name: option.name, checked: option.default ? true : null });
  } else if (option.choices) {
    input = h('select', { id, name: option.name },
      option.choices.map((c) => h('option', { value: c, selected: c === option.default ? true : null }, String(c))));
  } else if (option.type === 'integer') {
    input = h('input', { type: 'number', id, name: option.name, value: option.default, min: option.minimum, max: option.maximum });
  } else {
    input = h('input', { type: 'text', id, name: option.name, value: option.default ?? '' });
  }
  input.dataset.type = option.type;
  return h('div', { class: 'field' }, h('label', { for: id }, title(option.name).replace(/\bVp\b/g, 'VP')), input,
    h('small', { class: 'muted' }, playerWords(option.description)));
}

/** An option's description without the references to the rules document a player has no use for ("(D23)",
 * "(rules §14)"). */
function playerWords(text) {
  return String(text || '').replace(/\s*\((?:rules )?(?:§[\d.]+|[DQ]\d+)\)/g, '');
}

function createForm(types) {
  const form = h('form', { class: 'create', 'aria-label': 'Create a game' });
  const typeSelect = h('select', { id: 'game-type', name: 'game_type' },
    types.map((t) => h('option', { value: t.name }, `${t.title} (${t.min_players}–${t.max_players} players)`)));
  const countSelect = h('select', { id: 'player-count', name: 'players' });
  const seatsBox = h('fieldset', { class: 'seats' });
  const optionsBox = h('fieldset', { class: 'options' });
  const result = h('div', { class: 'created', 'aria-live': 'polite' });
  const nameInput = h('input', { type: 'text', id: 'my-name', maxlength: 64, autocomplete: 'nickname',
    value: localStorage.getItem(NAME_KEY) || '' });
  const clockMinutes = h('input', { type: 'number', id: 'clock-minutes', min: 0, max: 600, value: 0 });
  const clockBox = h('fieldset', { class: 'clock-options' }, h('legend', {}, 'Clock'),
    h('div', { class: 'field' }, h('label', { for: 'clock-minutes' }, 'Minutes per seat'), clockMinutes,
      h('small', { class: 'muted' }, '0: no clock. When a seat runs out, a bot plays on for it.')));

  const current = () => types.find((t) => t.name === typeSelect.value);
  function drawSeats() {
    const t = current();
    const n = Number(countSelect.value) || t.min_players;
    fill(seatsBox, h('legend', {}, 'Seats'), Array.from({ length: n }, (_, i) => {
      const id = `seat-${i}`;
      return h('div', { class: 'field' }, h('label', { for: id }, `Seat ${i + 1}`),
        h('select', { id, name: id, class: 'seat-kind' },
          h('option', { value: 'me', selected: i === 0 ? true : null }, 'Me'),
          h('option', { value: 'human' }, 'Another human (invite by link)'),
          t.bot_levels.map((level) => h('option', { value: `bot:${level}`, selected: i > 0 && level === 'easy' ? true : null }, `Bot — ${level}`))));
    }));
  }
  function drawType() {
    const t = current();
    const keep = Number(countSelect.value);
    fill(countSelect, Array.from({ length: t.max_players - t.min_players + 1 }, (_, k) => {
      const n = t.min_players + k;
      return h('option', { value: n, selected: n === (keep >= t.min_players && keep <= t.max_players ? keep : Math.min(3, t.max_players)) ? true : null }, `${n} players`);
    }));
    fill(optionsBox, h('legend', {}, 'Options'), t.options.length ? t.options.map(optionInput) : h('p', { class: 'muted' }, 'This game has no options.'));
    drawSeats();
  }
  typeSelect.addEventListener('change', drawType);
  countSelect.addEventListener('change', drawSeats);
  // One seat is "Me" at most: the table plays one seat. Choosing it for another seat makes the one before an
  // invited human, whose link is shown once the game is made.
  seatsBox.addEventListener('change', (event) => {
    if (event.target.value !== 'me') return;
    for (const other of seatsBox.querySelectorAll('select.seat-kind')) {
      if (other !== event.target && other.value === 'me') other.value = 'human';
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const t = current();
    const kinds = [...seatsBox.querySelectorAll('select.seat-kind')].map((s) => s.value);
    if (kinds.every((k) => k.startsWith('bot:'))) {
      // the server hosts games of bots only for integrators with an API key
      const words = 'A game here needs a person at the table: make one seat "Me", or invite another human.';
      fill(result, h('p', { class: 'error', role: 'alert' }, words));
      return;
    }
    const myName = nameInput.value.trim();
    if (myName) localStorage.setItem(NAME_KEY, myName);
    else localStorage.removeItem(NAME_KEY);
    const seats = kinds.map((k, i) => (k.startsWith('bot:') ? { kind: 'bot', level: k.slice(4) }
      : { kind: 'human', name: k === 'me' && myName ? myName : `Player ${i + 1}` }));
    const options = {};
    for (const input of optionsBox.querySelectorAll('input, select')) {
      const type = input.dataset.type;
      options[input.name] = type === 'boolean' ? input.checked : type === 'integer' ? Number(input.value) : input.value;
    }
    const body = { game_type: t.name, seats, options };
    const minutes = Number(clockMinutes.value) || 0;
    if (minutes > 0) body.clock = { bank_seconds: Math.round(minutes * 60), increment_seconds: 0, on_timeout: 'bot' };
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    fill(result, h('p', { class: 'muted' }, 'Creating the game… (bots may move first)'));
    try {
      const { data } = await api('POST', '/games', { body });
      const tokens = new Map(data.seat_tokens.map((s) => [s.seat, s.token]));
      const mine = kinds.indexOf('me');
      const invites = kinds.map((k, i) => (k === 'human' ? i : null)).filter((i) => i !== null);
      if (mine >= 0) {
        rememberSeat(data.id, tokens.get(mine));
        rememberSetup(data.id, { body, mine });
        rememberInvites(data.id, invites.map((i) => ({ seat: i, url: `${location.origin}/?game=${data.id}#seat=${tokens.get(i)}` })));
      }
      const tableUrl = mine >= 0 ? `/?game=${data.id}#seat=${tokens.get(mine)}` : `/?game=${data.id}#watch`;
      if (!invites.length) {
        location.assign(tableUrl);
        return;
      }
      fill(result,
        h('p', {}, 'Game created. Send each invited player their own link (it carries their seat; share it privately):'),
        h('ul', {}, invites.map((i) => {
          const url = `${location.origin}/?game=${data.id}#seat=${tokens.get(i)}`;
          return h('li', {}, `Seat ${i + 1}: `, h('input', { type: 'text', readonly: true, value: url, 'aria-label': `Invite link for seat ${i + 1}`, class: 'invite' }));
        })),
        h('a', { class: 'button', href: tableUrl }, mine >= 0 ? 'Go to my table' : 'Watch the table'));
    } catch (err) {
      const hint = err.code === 'too_many_bot_games'
        ? ' Your games marked "yours" below can be finished, or aborted from their table; a game nobody moves in ends by itself.'
        : '';
      fill(result, h('p', { class: 'error', role: 'alert' }, err.message + hint));
      toast(err.message);
    } finally {
      button.disabled = false;
    }
  });

  fill(form,
    h('div', { class: 'field' }, h('label', { for: 'game-type' }, 'Game'), typeSelect),
    h('div', { class: 'field' }, h('label', { for: 'player-count' }, 'Players'), countSelect),
    h('div', { class: 'field' }, h('label', { for: 'my-name' }, 'Your name'), nameInput,
      h('small', { class: 'muted' }, 'Shown at the table for the seat marked "Me"; this browser remembers it.')),
    seatsBox, optionsBox, clockBox,
    h('button', { type: 'submit', class: 'button' }, 'Create game'),
    result);
  drawType();
  return form;
}
