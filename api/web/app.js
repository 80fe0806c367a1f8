// Entry point: the query string chooses the page (lobby, table or replay).
import { h, fill } from './util.js';

const main = document.getElementById('main');

async function route() {
  const params = new URLSearchParams(location.search);
  try {
    if (params.get('replay')) {
      const { showReplay } = await import('./replay.js');
      await showReplay(main, params.get('replay'));
    } else if (params.get('game')) {
      const { showTable } = await import('./play.js');
      await showTable(main, params.get('game'));
    } else {
      const { showLobby } = await import('./lobby.js');
      await showLobby(main);
    }
  } catch (err) {
    fill(main, h('p', { class: 'error', role: 'alert' }, `Could not load the page: ${err.message}`));
  }
}

route();
