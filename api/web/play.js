// The table: the board of the game (one module per game), the legal commands as labelled buttons,
// the event log, undo, clocks and live updates through the long-polled event log.
import { h, fill, api, ApiError, newKey, title, seatName, seatToken, gameType, toast, invitesOf, rememberSeat, rememberSetup, setupOf, rowColumn } from './util.js';
import { eventText, words, namer } from './events.js';

const BOARDS = {
  puerto_rico: () => import('./games/puerto_rico.js'),
  murano: () => import('./games/murano.js'),
  amerigo: () => import('./games/amerigo.js'),
  archipelago: () => import('./games/archipelago.js'),
};

// A game is over once it is no longer active: finished (with a result), aborted or abandoned (without one).
const over = (g) => g.status !== 'active';
const ENDED = {
  aborted: 'Game aborted: it was ended before it was over. No result, not rated.',
  abandoned: 'Game abandoned: nobody moved for too long. No result, not rated.',
};

export async function loadBoard(name) {
  const load = BOARDS[name];
  return load ? load() : import('./games/generic.js');
}

export async function showTable(main, gameId) {
  const token = await seatToken(gameId);
  const t = {
    id: gameId, token, game: null, etag: null, legal: null, type: null, board: null,
    log: [], generation: null, busy: false, error: '', clockAt: 0,
  };
  const el = {
    head: h('div', { class: 'table-head' }),
    status: h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }),
    board: h('section', { class: 'board', 'aria-label': 'Board' }),
    commands: h('section', { class: 'commands panel', 'aria-label': 'Your moves' }),
    undo: h('section', { class: 'undo panel', 'aria-label': 'Undo' }),
    leave: h('section', { class: 'leave panel', 'aria-label': 'Leave the game' }),
    error: h('p', { class: 'error', role: 'alert' }),
    log: h('ol', { class: 'log', 'aria-label': 'Event log' }),
  };
  fill(main, el.head, el.status, el.error,
    h('div', { class: 'table' },
      h('div', { class: 'table-main' }, el.board),
      h('aside', { class: 'side' }, el.commands, el.undo, el.leave,
        h('section', { class: 'panel log-panel', 'aria-label': 'Event log' }, h('h2', {}, 'Log'), el.log))));

  await refresh(t, el);
  t.type = await gameType(t.game.game_type);
  t.board = await loadBoard(t.game.game_type);
  document.title = `Tradewinds — ${t.type.title}`;
  draw(t, el);
  await loadLog(t, el);
  follow(t, el);
  setInterval(() => drawClock(t, el), 1000);
}

// The game, its ETag and the legal commands are taken together from one version: refreshes can overlap (a
// live event and the end of a move), and only the newest one may draw, or a move list of one version would be
// sent with another version's If-Match. Nor may one draw while a move is being sent: it would enable again
// the buttons of the version that move is about to replace (the move's own refresh draws when it is done).
async function refresh(t, el) {
  const seq = (t.refreshSeq = (t.refreshSeq || 0) + 1);
  const { data, etag } = await api('GET', `/games/${t.id}`, { token: t.token });
  let legal = null;
  if (data.your_seat !== null && !over(data) && data.to_act.includes(data.your_seat)) {
    legal = (await api('GET', `/games/${t.id}/legal-commands`, { token: t.token })).data;
    if (seq !== t.refreshSeq || t.busy) return;
    if (legal.etag !== data.etag) return refresh(t, el);
  }
  if (seq !== t.refreshSeq || t.busy) return;
  t.game = data;
  t.etag = etag;
  t.clockAt = Date.now();
  t.legal = legal;
  t.narrowed = null;
  t.picked = {};
  if (t.board) draw(t, el);
}

/** The whole event log, read page by page into a list of its own. */
async function readLog(t) {
  const events = [];
  let generation = null;
  let next = 0;
  while (next !== null) {
    const { data } = await api('GET', `/games/${t.id}/events?after=${next}&limit=500`, { token: t.token });
    generation = data.generation;
    events.push(...data.events);
    next = data.next_after;
  }
  return { events, generation };
}

/** Read the log again and put it in place at once, keeping what the stream brought meanwhile past its end (so that
 * no line is lost or shown twice). */
async function loadLog(t, el) {
  const got = await readLog(t);
  const end = got.events.length ? got.events[got.events.length - 1].version : 0;
  const later = got.generation === t.generation ? t.log.filter((e) => e.version > end) : [];
  t.generation = got.generation;
  t.log = [...got.events, ...later];
  drawLog(t, el);
}

// Live updates: the game's Server-Sent Events stream. A seat opens it with a short-lived, single-use stream
// ticket (POST /stream-tickets with the bearer token; EventSource cannot send headers); a spectator opens the
// public stream. When a stream ends (the server closes it after a while) a new one resumes after the last
// event seen. Only when streams keep failing does the page fall back to long-polling the event log.
function lastId(t) {
  return t.log.length ? `${t.generation}.${t.log[t.log.length - 1].version}` : null;
}

async function ticketUrl(t) {
  const { data } = await api('POST', `/games/${t.id}/stream-tickets`, { token: t.token });
  return { url: data.stream_url, until: Date.now() + (data.expires_in - 10) * 1000 };
}

async function streamUrl(t) {
  const params = new URLSearchParams({ max_seconds: '300' });
  const last = lastId(t);
  if (last) params.set('last_event_id', last);
  if (!t.token) return `/games/${t.id}/stream?${params}`;
  // the ticket fetched ahead while the last stream ran, if it is still fresh: one request less between streams
  const ahead = t.nextTicket && t.nextTicket.until > Date.now() ? t.nextTicket : null;
  t.nextTicket = null;
  const { url } = ahead || await ticketUrl(t);
  return `${url}&${params}`;
}

function follow(t, el) {
  let failures = 0;
  const open = async () => {
    if (over(t.game)) return;
    let url;
    try {
      url = await streamUrl(t);
    } catch (err) {
      failures += 1;
      if (failures >= 2) { longPoll(t, el); return; }
      setTimeout(open, 1000);
      return;
    }
    const source = new EventSource(url);
    t.live = 'stream';
    t.source = source;
    let opened = false;
    source.addEventListener('open', () => {
      opened = true;
      failures = 0;
      if (t.token) ticketUrl(t).then((next) => { t.nextTicket = next; }, () => { t.nextTicket = null; });
    });
    source.addEventListener('game_event', (msg) => {
      const event = JSON.parse(msg.data);
      const last = t.log.length ? t.log[t.log.length - 1].version : 0;
      if (event.version > t.game.version) scheduleRefresh(t, el);  // not yet in the state the page shows
      if (event.generation === t.generation && event.version > last) {
        t.log.push(event);
        drawLogSoon(t, el);  // while the refresh is on the network
      }
    });
    source.addEventListener('truncated', async () => {
      t.generation = null;  // the log read next replaces the one of the generation undone
      await loadLog(t, el);
      scheduleRefresh(t, el);
    });
    source.addEventListener('game_over', () => {
      source.close();
      scheduleRefresh(t, el);
    });
    source.addEventListener('error', () => {
      // the stream ended or failed: EventSource would retry with a ticket already used, so open a fresh one
      source.close();
      if (over(t.game)) return;
      if (!opened) failures += 1;
      if (failures >= 2) { longPoll(t, el); return; }
      setTimeout(open, opened ? 0 : 1000);
    });
  };
  open();
}

/** Redraw the log once for a burst of events. */
function drawLogSoon(t, el) {
  if (t.logTimer) return;
  t.logTimer = setTimeout(() => { t.logTimer = null; drawLog(t, el); }, 20);
}

/** Refresh the game (and the legal moves) once for a burst of events, never two at once. While a move of this
 * page is on its way the refresh that follows it shows the new state. */
function scheduleRefresh(t, el) {
  if (t.busy) return;
  if (t.refreshing) { t.dirty = true; return; }
  t.refreshing = true;
  setTimeout(async () => {
    try {
      if (!t.busy) await refresh(t, el);
    } catch (err) {
      if (unreachable(err)) reconnect(t, el);
      else showError(el, err.message);
    } finally {
      t.refreshing = false;
      if (t.dirty) { t.dirty = false; scheduleRefresh(t, el); }
    }
  }, 0);
}

// The fallback: long-poll the event log (GET /events?after=N&wait=20) with the seat's bearer header.
async function longPoll(t, el) {
  t.live = 'long-poll';
  drawLiveNote(t, el);
  for (;;) {
    if (t.live !== 'long-poll') return;  // back on the stream (after an outage)
    try {
      const after = t.log.length ? t.log[t.log.length - 1].version : 0;
      const { data } = await api('GET', `/games/${t.id}/events?after=${after}&wait=20&limit=500`, { token: t.token });
      if (data.generation !== t.generation) {
        t.generation = null;
        await loadLog(t, el);
        await refresh(t, el);
        continue;
      }
      const last = t.log.length ? t.log[t.log.length - 1].version : 0;
      const fresh = data.events.filter((e) => e.version > last);
      if (fresh.length) {
        t.log.push(...fresh);
        drawLog(t, el);
      }
      if (data.version !== t.game.version && !t.busy) await refresh(t, el);
      if (over(t.game) && data.next_after === null) return;
    } catch (err) {
      if (unreachable(err)) reconnect(t, el);
      else if (!t.offline) showError(el, err.message);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

// No answer, or not the API's own: a proxy's 502 page, a 503 or 504 while the server restarts or its store is away.
const unreachable = (err) => !(err instanceof ApiError) || [502, 503, 504].includes(err.status);
const OFFLINE = 'The server cannot be reached. The table comes back by itself once it can.';

/** The server cannot be reached: say so, keep every move disabled (the list and the board), and try again every
 * few seconds until the game and its log can be read; then the table is drawn afresh from the server (the game
 * may have moved, or been undone, meanwhile). An answer of the API itself (the game is gone, the seat's token no
 * longer valid) ends the attempts with its message. */
function reconnect(t, el) {
  if (t.offline) return;
  const offline = () => {
    t.offline = true;
    el.commands.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    el.board.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    el.status.textContent = 'Connection lost: reconnecting…';
    showError(el, OFFLINE);
  };
  offline();
  const attempt = async () => {
    try {
      await loadLog(t, el);  // read whole, then put in place with what the stream brought meanwhile
      t.offline = false;
      showError(el, '');
      await refresh(t, el);
      if (t.live === 'long-poll' && !over(t.game)) {  // the outage made the stream give up: try it again
        t.live = 'stream';
        drawLiveNote(t, el);
        follow(t, el);
      }
    } catch (err) {
      if (!unreachable(err)) {
        t.offline = false;
        showError(el, err.message);
        return;
      }
      offline();
      setTimeout(attempt, 3000);
    }
  };
  setTimeout(attempt, 3000);
}

function drawLiveNote(t) {
  const note = document.getElementById('live-note');
  if (note) note.textContent = t.live === 'long-poll' ? ' · live by polling' : '';
}

function showError(el, message) {
  el.error.textContent = message;
  if (message) toast(message);
}

async function play(t, el, command) {
  if (t.busy || t.offline) return;
  t.busy = true;
  t.undoNote = '';
  showError(el, '');
  el.status.textContent = 'Sending your move…';
  el.commands.querySelectorAll('button').forEach((b) => { b.disabled = true; });
  try {
    const { data } = await api('POST', `/games/${t.id}/commands`, {
      token: t.token, body: { command }, headers: { 'If-Match': t.etag, 'Idempotency-Key': newKey() },
    });
    const known = new Set(t.log.map((e) => e.version));
    t.log.push(...data.events.filter((e) => !known.has(e.version)));
    drawLog(t, el);
  } catch (err) {
    if (unreachable(err)) {
      t.busy = false;
      reconnect(t, el);  // the move may or may not have arrived: the table is read again once the server answers
      return;
    }
    showError(el, err.code === 'stale_version'
      ? 'The game moved on before your move arrived, so it was not played. The table now shows where the game stands: choose again.'
      : err.message);
  } finally {
    t.busy = false;
  }
  try {
    await refresh(t, el);
  } catch (err) {
    if (unreachable(err)) reconnect(t, el);
    else showError(el, err.message);
  }
}

const REQUESTED = 'Undo requested: waiting for the other players.';

async function undo(t, el, path, body) {
  showError(el, '');
  try {
    const { data } = await api('POST', `/games/${t.id}/${path}`, { token: t.token, body: body ?? {} });
    t.undoNote = data.status === 'done' ? 'Undone.' : data.status === 'requested' ? REQUESTED : 'Undo declined.';
    t.undoSeenOpen = false;
    t.undoGeneration = t.game.generation;
  } catch (err) {
    t.undoNote = `Undo refused: ${err.message}`;
    showError(el, t.undoNote);
  }
  await refresh(t, el);
}

/** The version just before this seat's latest move (its first event), or null. */
function lastMoveStart(t) {
  const me = t.game.your_seat;
  let i = t.log.length - 1;
  while (i >= 0 && !(t.log[i].seat === me && t.log[i].actor === 'human')) i -= 1;
  if (i < 0) return null;
  while (i > 0 && t.log[i - 1].seat === me && t.log[i - 1].actor === 'human') i -= 1;
  return t.log[i].version - 1;
}

function draw(t, el) {
  const g = t.game;
  const me = g.your_seat;
  fill(el.head,
    h('h1', {}, t.type.title, h('span', { class: 'muted' }, ` · ${me === null ? 'spectating' : `you are seat ${me + 1}`}`)),
    h('ul', { class: 'seats-bar', 'aria-label': 'Players' }, g.seats.map((s) => h('li', {
      class: `seat s${s.seat}${g.to_act.includes(s.seat) ? ' acting' : ''}${s.seat === me ? ' me' : ''}`,
      'aria-current': g.to_act.includes(s.seat) ? 'true' : null,
    }, h('span', { class: 'dot', 'aria-hidden': 'true' }), `${seatName(s)}${s.seat === me ? ' (you)' : ''}`,
    g.to_act.includes(s.seat) ? h('span', { class: 'sr' }, ' — to act') : null,
    h('span', { class: 'clock', 'data-seat': s.seat }),
    g.result ? h('strong', { class: 'score' }, ` ${g.result.scores[s.seat]} pts · #${g.result.ranks[s.seat]}`) : null))),
    h('p', { class: 'links' },
      h('a', { href: `/?replay=${t.id}`, class: 'button secondary' }, 'Replay'),
      h('span', { class: 'muted', id: 'version', 'data-version': g.version }, ` move ${g.version}`),
      h('span', { class: 'muted', id: 'live-note' }, t.live === 'long-poll' ? ' · live by polling' : '')));
  drawClock(t, el);
  const myTurn = !over(g) && me !== null && g.to_act.includes(me);
  // a player who waits in another tab sees in the tab's title that the move is theirs
  document.title = `${myTurn ? '● Your turn — ' : ''}Tradewinds — ${t.type.title}`;
  const waiting = !over(g) && !myTurn;
  fill(el.status, waiting ? h('span', { class: 'spinner', 'aria-hidden': 'true' }) : null, statusText(t));
  const ctx = {
    catalogue: t.type.catalogue, codes: t.type.catalogue.codes || {}, name: (t.namer ??= namer(t.type)), type: t.type, seats: g.seats, me, game: g,
    choices: t.legal ? t.legal.choices : [],
    play: (command) => play(t, el, command),
    narrow: (choices) => { t.narrowed = choices; t.picked = {}; drawCommands(t, el); el.commands.querySelector('button.choice')?.focus(); },
  };
  try {
    fill(el.board, t.board.render(g.state, ctx));
  } catch (err) {
    fill(el.board, h('p', { class: 'error' }, `The board could not be drawn: ${err.message}`));
  }
  drawCommands(t, el);
  drawUndo(t, el);
  drawLeave(t, el);
}

function statusText(t) {
  const g = t.game;
  if (g.status === 'finished') {
    const best = g.result.ranks.map((r, i) => [r, i]).filter(([r]) => r === 1).map(([, i]) => seatName(g.seats[i]));
    return g.result.no_winner ? 'Game over: nobody won.' : `Game over. Winner: ${best.join(' and ')}.`;
  }
  if (over(g)) return ENDED[g.status] || `Game ${g.status}: no result.`;
  const me = g.your_seat;
  if (me !== null && g.to_act.includes(me)) return 'Your turn.';
  const bots = g.to_act.filter((s) => g.seats[s].kind === 'bot');
  if (bots.length) {
    let since = 0;
    for (let i = t.log.length - 1; i >= 0 && !(t.log[i].seat === me && t.log[i].actor === 'human'); i -= 1) if (t.log[i].actor === 'bot') since += 1;
    return `${bots.map((s) => seatName(g.seats[s])).join(' and ')} ${bots.length === 1 ? 'is' : 'are'} playing… ${since ? `${since} bot event${since === 1 ? '' : 's'} so far, ` : ''}now at move ${g.version}.`;
  }
  return `Waiting for ${g.to_act.map((s) => seatName(g.seats[s])).join(', ')}…`;
}

function drawCommands(t, el) {
  const g = t.game;
  if (g.status === 'finished') {
    fill(el.commands, h('h2', {}, 'Final scores'), h('ol', { class: 'final' },
      g.seats.map((s) => s.seat).sort((a, b) => g.result.ranks[a] - g.result.ranks[b])
        .map((i) => h('li', {}, `${seatName(g.seats[i])}: ${g.result.scores[i]} points (rank ${g.result.ranks[i]})`))),
    playAgain(t));
    return;
  }
  if (over(g)) {
    fill(el.commands, h('h2', {}, 'Game ended'), h('p', { class: 'ended' }, ENDED[g.status] || `Game ${g.status}: no result.`),
      playAgain(t));
    return;
  }
  if (g.your_seat === null) {
    fill(el.commands, h('h2', {}, 'Spectating'), h('p', { class: 'muted' }, 'You watch this game; moves appear as they are played.'));
    return;
  }
  if (!t.legal) {
    fill(el.commands, h('h2', {}, 'Your moves'), h('p', { class: 'muted waiting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Not your turn.'));
    return;
  }
  const base = t.narrowed || t.legal.choices;
  const picked = t.picked || {};
  const shown = base.filter((c) => matches(c, picked));
  const total = t.legal.choices.length;
  fill(el.commands, h('h2', {}, t.narrowed ? `Moves for that piece (${shown.length} of ${total})`
    : `Your moves (${shown.length === total ? total : `${shown.length} of ${total}`})`),
    t.narrowed ? h('button', { type: 'button', class: 'button secondary', onclick: () => { t.narrowed = null; t.picked = {}; drawCommands(t, el); } }, 'Show all moves') : null,
    narrowing(t, el, base, picked),
    h('div', { class: 'choice-list' }, shown.map((c) => h('button', {
      type: 'button', class: 'choice', 'data-type': c.command.type, onclick: () => play(t, el, c.command),
    }, c.label, h('span', { class: 'tag' }, [c.cost ? `costs ${c.cost}` : '', c.gain ? `brings ${c.gain}` : '', c.points ? `${c.points} VP` : ''].filter(Boolean).map((x) => ` · ${x}`).join(''))))));
}

// A long list of moves (Archipelago's set-up offers over a hundred placements) is narrowed field by field: one list
// per field of the commands whose value differs between them, each offering the values the other choices leave.
const MANY_MOVES = 12;
const FIELD_WORDS = { pos: 'Position', at: 'Position', rot: 'Rotation', to: 'To', from: 'From' };
const FIELD_ORDER = ['type', 'tile', 'face', 'pos', 'at', 'rot'];  // as a move's label says them; others after
const fieldRank = (f) => (FIELD_ORDER.includes(f) ? FIELD_ORDER.indexOf(f) : FIELD_ORDER.length);
const fieldKey = (value) => JSON.stringify(value ?? null);
const matches = (choice, picked) => Object.entries(picked).every(([f, v]) => fieldKey(choice.command[f]) === v);

// A place as the move labels write it: "(1, 0)".
const PLACE_KEYS = ['q,r', 'c,r', 'x,y', 'col,row'];  // their keys in sorted order

export function fieldText(t, value) {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.length ? value.map((v) => fieldText(t, v)).join(', ') : 'none';
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return 'none';
    if (PLACE_KEYS.includes(Object.keys(value).sort().join(','))) return `(${Object.values(value).join(', ')})`;
    return entries.map(([k, v]) => `${fieldText(t, k)} ${fieldText(t, v)}`).join(', ');
  }
  if (typeof value !== 'string') return String(value);
  const name = (t.namer ??= namer(t.type));
  const [part, cell, ...more] = value.split(':');  // a square of a named board part ("NAVAGERO:r1c0"), as labels say it
  const square = !more.length && /^[A-Za-z_]+$/.test(part) && rowColumn(cell);
  return square ? `${name(part)}, ${square}` : name(value);
}

function narrowing(t, el, base, picked) {
  if (base.length <= MANY_MOVES) return null;
  const fields = [...new Set(base.flatMap((c) => Object.keys(c.command)))]
    .filter((f) => new Set(base.map((c) => fieldKey(c.command[f]))).size > 1)
    .sort((a, b) => fieldRank(a) - fieldRank(b));
  if (!fields.length) return null;
  return h('div', { class: 'narrowing' }, fields.map((f) => {
    const others = Object.fromEntries(Object.entries(picked).filter(([k]) => k !== f));
    const values = new Map(base.filter((c) => matches(c, others)).map((c) => [fieldKey(c.command[f]), c.command[f]]));
    const id = `narrow-${f}`;
    const select = h('select', { id, onchange: (event) => {
      const next = { ...picked };
      if (event.target.value) next[f] = event.target.value;
      else delete next[f];
      t.picked = next;
      drawCommands(t, el);
      el.commands.querySelector(`#${id}`)?.focus();
    } }, h('option', { value: '' }, 'any'),
    [...values].map(([key, value]) => h('option', { value: key, selected: picked[f] === key ? true : null }, fieldText(t, value))));
    return h('span', { class: 'narrow-field' }, h('label', { for: id }, FIELD_WORDS[f] || title(f)), select);
  }));
}

/** The set-up of a game as the game itself says it, for a seat this browser holds in a game it did not set up
 * (opened from a seat link): the game, its options, clock and seats; a seat a bot took over when its person resigned
 * or ran out of time is a person's again, and the game's public listing is kept (a game that was not public is not). */
function setupFromGame(g) {
  if (g.your_seat === null || g.your_seat === undefined) return null;
  const seats = g.seats.map((s) => (s.kind === 'human' || s.resigned || s.timed_out
    ? { kind: 'human', ...(s.name ? { name: s.name } : {}) }
    : { kind: 'bot', ...(s.level ? { level: s.level } : {}), ...(s.name ? { name: s.name } : {}) }));
  const body = { game_type: g.game_type, options: g.options || {}, seats, undo: g.undo_allowed, on_resign: g.on_resign };
  if (g.on_resign === 'bot') body.resign_level = g.resign_level;
  if (typeof g.public === 'boolean') body.public = g.public;
  if (g.clock) {
    const { bank_seconds, increment_seconds, on_timeout } = g.clock;
    body.clock = { bank_seconds, increment_seconds, on_timeout };
  }
  return { body, mine: g.your_seat };
}

/** A game against bots only, once over, is played again at once by the browser that holds its human seat: the
 * same game, options, clock and seats (a new deal), this browser in the same seat. With other people at the table
 * it is not offered: they would need new invitations, which the lobby hands out. */
function playAgain(t) {
  const setup = setupOf(t.id) || setupFromGame(t.game);
  if (!setup || setup.body.seats.some((s, i) => s.kind === 'human' && i !== setup.mine)) return null;
  const button = h('button', { type: 'button', class: 'button', onclick: async () => {
    button.disabled = true;
    try {
      const { data } = await api('POST', '/games', { body: setup.body });
      const token = data.seat_tokens.find((s) => s.seat === setup.mine).token;
      rememberSeat(data.id, token);
      rememberSetup(data.id, setup);
      location.assign(`/?game=${data.id}#seat=${token}`);
    } catch (err) {
      toast(err.code === 'too_many_bot_games' ? `${err.message} Your other games are in the lobby.` : err.message);
      button.disabled = false;
    }
  } }, 'Play again with the same set-up');
  return h('p', {}, button);
}

function drawUndo(t, el) {
  const g = t.game;
  if (g.your_seat === null || over(g) || !g.undo_allowed) {
    fill(el.undo);
    el.undo.hidden = true;
    return;
  }
  el.undo.hidden = false;
  const req = g.undo_request;
  const parts = [h('h2', {}, 'Undo')];
  if (req && req.pending.length) {
    parts.push(h('p', {}, `${seatName(g.seats[req.by])} asks to go back to move ${req.to_version}` + (req.reason ? ` (“${req.reason}”)` : '') + '.'));
    if (req.pending.includes(g.your_seat)) {
      parts.push(h('button', { type: 'button', class: 'button', onclick: () => undo(t, el, 'undo/accept') }, 'Accept undo'),
        h('button', { type: 'button', class: 'button secondary', onclick: () => undo(t, el, 'undo/decline') }, 'Decline undo'));
    } else {
      parts.push(h('p', { class: 'muted' }, `Waiting for ${req.pending.map((s) => seatName(g.seats[s])).join(', ')}.`));
    }
  } else {
    const to = lastMoveStart(t);
    parts.push(h('button', {
      type: 'button', class: 'button secondary', disabled: to === null ? true : null,
      onclick: () => undo(t, el, 'undo', { to_version: to, reason: 'take back my last move' }),
    }, 'Take back my last move'));
  }
  if (t.undoNote === REQUESTED) {  // dropped once the request, seen open, is answered (or the game went back)
    if (req && req.pending.length) t.undoSeenOpen = true;
    else if (t.undoSeenOpen || g.generation !== t.undoGeneration) t.undoNote = '';
  }
  if (t.undoNote) parts.push(h('p', { role: 'status', class: 'undo-note' }, t.undoNote));
  fill(el.undo, parts);
}

// Resign (the game's own rule: ranked last, or a bot plays on) and abort (the game's creator: without an API key,
// its first human seat), each asked twice before it is sent.
function drawLeave(t, el) {
  const g = t.game;
  const me = g.your_seat;
  if (me === null || over(g) || g.seats[me].kind !== 'human') {
    fill(el.leave);
    el.leave.hidden = true;
    return;
  }
  el.leave.hidden = false;
  const first = g.seats.find((s) => s.kind === 'human' || s.resigned || s.timed_out);
  const parts = [h('h2', {}, 'Leave the game'),
    h('button', { type: 'button', class: 'button secondary', onclick: () => leave(t, el, 'resign',
      'Resign? The game goes on without you: you are ranked last, or a bot plays on for your seat, as this game was set up.') }, 'Resign')];
  if (first && first.seat === me) {
    parts.push(h('button', { type: 'button', class: 'button secondary', onclick: () => leave(t, el, 'abort',
      'Abort the game for everybody? It ends now with no result.') }, 'Abort game'));
  }
  if (t.leaveNote) parts.push(h('p', { role: 'status', class: 'leave-note' }, t.leaveNote));
  const invites = invitesOf(t.id);  // this browser created the game: the links it handed out, again
  if (invites.length) {
    parts.push(h('details', { class: 'invites' }, h('summary', {}, 'Invite links'), invites.map((x) => h('p', {},
      `Seat ${x.seat + 1}: `, h('input', { type: 'text', readonly: true, value: x.url, class: 'invite', 'aria-label': `Invite link for seat ${x.seat + 1}` })))));
  }
  fill(el.leave, parts);
}

async function leave(t, el, path, question) {
  if (!window.confirm(question)) return;
  showError(el, '');
  t.leaveNote = '';
  try {
    await api('POST', `/games/${t.id}/${path}`, { token: t.token, body: {} });
  } catch (err) {
    t.leaveNote = `${path === 'abort' ? 'Abort' : 'Resignation'} refused: ${err.message}`;
    showError(el, t.leaveNote);
  }
  await refresh(t, el);
}

function drawClock(t, el) {
  const c = t.game && t.game.clock;
  if (!c) return;
  const elapsed = (Date.now() - t.clockAt) / 1000;
  for (const span of el.head.querySelectorAll('.clock')) {
    const seat = Number(span.dataset.seat);
    const running = c.running.includes(seat);
    const left = Math.max(0, c.remaining[seat] - (running ? elapsed : 0));
    const m = Math.floor(left / 60);
    const s = Math.floor(left % 60);
    span.textContent = ` · ${m}:${String(s).padStart(2, '0')}`;
    span.classList.toggle('running', running);
    span.setAttribute('aria-label', `${m} minutes ${s} seconds left${running ? ', running' : ''}`);
  }
}

function drawLog(t, el) {
  if (!t.board || !t.game) return;
  if (!t.words) t.words = words(t.type, t.game.seats);
  // a run of lines that say the same thing of the same seat ("puts a colonist on a corn plantation", seven
  // times over in Puerto Rico's mayor phase) is one line with its count
  const runs = [];
  for (const e of t.log.slice(-200)) {
    const text = eventText(e, t.board, t.words);
    const subject = subjectOf(e, t.board);
    const last = runs[runs.length - 1];
    // (the next version only: an event the page holds twice stays two lines, for all to see)
    if (last && last.text === text && last.subject === subject && e.version === last.through + 1) {
      last.count += 1;
      last.through = e.version;
    } else {
      runs.push({ e, text, subject, count: 1, through: e.version });
    }
  }
  fill(el.log, runs.map((r) => logItem(r.e, t.board, t.words, {}, (x) => x, r)));
  el.log.scrollTop = el.log.scrollHeight;
  drawUndo(t, el);  // "take back my last move" needs the log to know where that move began
}

/** Whom a log line is about: the event's seat (a game's module may say otherwise); a game-wide event ("Round 2
 * begins") has none, whoever's move brought it. */
function subjectOf(e, board) {
  const named = board && board.subject ? board.subject(e) : e.data && e.data.seat;
  return Number.isInteger(named) ? named : null;
}

/** One line of the log: the version, a dot in the colour of the seat that acted, and the sentence; for a run of
 * the same line (``run``: its count, last version, and the text and subject the table found for it), the versions
 * it spans and how many times. */
export function logItem(e, board, w, attrs = {}, wrap = (x) => x, run = { count: 1 }) {
  const subject = 'subject' in run ? run.subject : subjectOf(e, board);
  const has = subject !== null;
  const many = run.count > 1;
  return h('li', { ...attrs, class: `${attrs.class || ''}${has ? ` s${subject}` : ' game'}` },
    wrap([h('span', { class: 'v', 'aria-label': many ? `moves ${e.version} to ${run.through}` : `move ${e.version}` },
      many ? `${e.version}–${run.through}` : `${e.version}`),
    h('span', { class: 'dot', 'aria-hidden': 'true', style: has ? null : 'visibility: hidden' }),
    'text' in run ? run.text : eventText(e, board, w),
    many ? h('span', { class: 'times', 'aria-label': `${run.count} times` }, ` ×${run.count}`) : null]));
}

export { title };
