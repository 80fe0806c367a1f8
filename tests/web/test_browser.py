"""The browser client, driven in Chromium: lobby, full games against easy bots, spectating, replay, undo, phone.

Each test clicks only visible controls (the labelled legal-command buttons and the page's own buttons) and
asserts the console stays free of errors (the `console` fixture). Screenshots go to test-screenshots/.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.web.conftest import shot

# The longest game a test will play (human moves); a finished game needs 35-120 with two seats.
MAX_MOVES = 400
GAMES = {
    "puerto_rico": {},
    "murano": {},
    "amerigo": {},
    "archipelago": {"length": "short"},
}


def create_from_lobby(page, base, game_type, players=2, options=None, seats=None, clock_minutes=0, keep_page=False):
    """Fill the lobby's form (visible controls only) and land on the new game's table."""
    if not keep_page:
        page.goto(base + "/")
    page.get_by_label("Game", exact=True).select_option(game_type)
    page.get_by_label("Players").select_option(str(players))
    for i, kind in enumerate(seats or []):
        page.get_by_label(f"Seat {i + 1}", exact=True).select_option(kind)
    if clock_minutes:
        page.get_by_label("Minutes per seat").fill(str(clock_minutes))
    for name, value in (options or {}).items():
        page.locator(f"#opt-{name}").select_option(value)
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"\?game="))
    page.locator("#version").wait_for()
    return page.url.split("?game=")[1].split("#")[0]


def game_id_of(page):
    return page.url.split("?game=")[1].split("#")[0]


def wait_for_my_move(page):
    """Until the page offers a move (the last one's answer and the bots' moves are in) or shows the final scores."""
    page.wait_for_function(
        "document.querySelector('button.choice:not([disabled])') || document.querySelector('ol.final')",
        timeout=30_000,
    )


def play_moves(page, limit):
    """Click the first legal command until the final scores show or `limit` moves were made; returns the count."""
    moves = 0
    # Trade offers can be built forever (Archipelago): a player who wants the game to end makes none.
    preferred = page.locator('button.choice:not([disabled]):not([data-type^="offer_"])')
    any_choice = page.locator("button.choice:not([disabled])")
    final = page.get_by_role("heading", name="Final scores")
    while moves < limit:
        wait_for_my_move(page)
        if final.is_visible():
            break
        (preferred if preferred.count() else any_choice).first.click()
        moves += 1
    return moves


@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_full_game_against_an_easy_bot(live_server, context, console, game_type):
    page = console.watch(context.new_page())
    game_id = create_from_lobby(page, live_server.url, game_type, options=GAMES[game_type])
    assert page.locator(".board").is_visible()
    play_moves(page, 6)
    wait_for_my_move(page)
    shot(page, f"{game_type}-mid")
    # the move list, the players' planned tiles and the log, read mid-game where shape codes may show
    middle = page.locator("main").inner_text() if game_type == "amerigo" else ""
    if game_type == "murano":  # beads in the rules' order, not the alphabet's
        bag = page.locator(".centre .chip.c-red, .centre .chip.c-green, .centre .chip.c-blue").all_inner_texts()
        assert [re.sub(r"\s*\d+$", "", chip) for chip in bag] == ["Red", "Green", "Blue"], bag
    if game_type == "archipelago":  # the bank lists resources in the markets' order, not the alphabet's
        bank = [re.sub(r"\s*\d+$", "", chip) for chip in page.locator("dl[aria-label='Bank'] .chip").all_inner_texts()]
        assert bank == ["Fruit", "Wood", "Cattle", "Stone", "Fish", "Iron"], bank
    play_moves(page, MAX_MOVES)
    final = page.get_by_role("heading", name="Final scores")
    final.wait_for(timeout=30_000)
    shot(page, f"{game_type}-end")
    scores = page.locator("ol.final li").all_inner_texts()
    assert len(scores) == 2 and all("points" in s for s in scores)
    api = live_server.client().get(f"/games/{game_id}").get_json()
    assert api["status"] == "finished"
    shown = sorted(float(re.search(r": ([\d.]+) points", s).group(1)) for s in scores)
    assert shown == sorted(api["result"]["scores"])
    if game_type == "amerigo":  # tiles are named by shape in words, not by the command's code ("S3L")
        for said in (middle, page.locator("main").inner_text()):
            assert not re.search(r"\bS[1-6][A-Z]?\b", said), re.findall(r".*\bS[1-6][A-Z]?\b.*", said)


def test_a_spectator_sees_each_move_as_it_is_played_over_the_stream(live_server, browser, context, console):
    """Each move reaches a spectator's page by itself, pushed over the game's event stream: no reload, no polling
    (how fast is for benchmarks/followers.py, not a timed test)."""
    player = console.watch(context.new_page())
    game_id = create_from_lobby(player, live_server.url, "puerto_rico")
    watcher_context = browser.new_context(viewport={"width": 1000, "height": 800}, bypass_csp=True)
    try:
        watcher = console.watch(watcher_context.new_page())
        asked: list[str] = []
        watcher.on("request", lambda request: asked.append(request.url))
        watcher.goto(live_server.url + "/")  # the lobby lists the active game; open it as a spectator
        watcher.get_by_role("link", name=f"Watch game {game_id}").click()
        watcher.get_by_role("heading", name="Spectating", exact=True).wait_for()
        assert watcher.locator("button.choice").count() == 0
        navigated: list[str] = []
        watcher.on("framenavigated", lambda frame: navigated.append(frame.url))
        for _ in range(5):
            player.locator("button.choice:not([disabled])").first.click()
            player.wait_for_function("!document.querySelector('button.choice[disabled]')")
            version = live_server.client().get(f"/games/{game_id}").get_json()["version"]
            watcher.wait_for_function(f"document.querySelector('#version')?.dataset.version === '{version}'")
        streams = [url for url in asked if f"/games/{game_id}/stream" in url]
        polls = [url for url in asked if f"/games/{game_id}/events" in url and "wait=" in url]
        assert streams and not polls and not navigated, (streams, polls, navigated)
        # the test server ends a stream after a few seconds: a stream opened after it resumes where it ended
        assert all("last_event_id=" in url for url in streams[1:]), streams
        shot(watcher, "spectator")
    finally:
        watcher_context.close()


def test_replay_scrubs_a_finished_game_and_verifies_its_export(live_server, context, console):
    page = console.watch(context.new_page())
    game_id = create_from_lobby(page, live_server.url, "amerigo")
    play_moves(page, MAX_MOVES)
    page.get_by_role("heading", name="Final scores").wait_for()
    page.get_by_role("link", name="Replay").click()
    page.wait_for_url(re.compile(r"\?replay="))
    position = page.locator("output.position")
    total = live_server.client().get(f"/games/{game_id}").get_json()["version"]
    position.filter(has_text=f"Version {total} of {total}").wait_for()
    page.get_by_role("button", name="First version").click()
    position.filter(has_text=f"Version 1 of {total}").wait_for()
    page.get_by_role("button", name="Next version").click()
    position.filter(has_text=f"Version 2 of {total}").wait_for()
    assert page.locator(".log li.current").get_attribute("data-version") == "2"
    slider = page.get_by_label("Version", exact=True)
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    position.filter(has_text=f"Version 7 of {total}").wait_for()
    shot(page, "replay")
    page.get_by_role("button", name="Download the export and verify it").click()
    page.locator("#verify-result").wait_for()
    assert page.locator("#verify-result").inner_text().startswith("✔ Verified")
    assert page.get_by_role("link", name="Save the export file").is_visible()


def test_an_aborted_game_s_replay_offers_its_export_to_anyone(live_server, browser, context, console):
    """An aborted game is over: its export (hidden information and seed included) is open to all, as the API
    serves it; the replay offers it and its verification, as it does for a finished game."""
    page = console.watch(context.new_page())
    game_id = create_from_lobby(page, live_server.url, "murano")
    play_moves(page, 4)
    wait_for_my_move(page)  # the last move's answer is in: an abort sent before it would get the move refused
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Abort game").click()
    page.get_by_role("heading", name="Game ended").wait_for()
    stranger = browser.new_context(bypass_csp=True)
    try:
        other = console.watch(stranger.new_page())
        other.goto(f"{live_server.url}/?replay={game_id}")
        other.get_by_role("button", name="Download the export and verify it").click()
        other.locator("#verify-result").wait_for()
        assert other.locator("#verify-result").inner_text().startswith("✔ Verified")
    finally:
        stranger.close()


def test_undo_takes_back_my_last_move(live_server, context, console):
    page = console.watch(context.new_page())
    game_id = create_from_lobby(page, live_server.url, "puerto_rico")
    client = live_server.client()
    before = client.get(f"/games/{game_id}").get_json()["version"]
    page.locator("button.choice:not([disabled])").first.click()
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version !== '{before}'")
    page.reload()  # the table drawn afresh still knows where my last move began (from the log)
    page.locator("#version").wait_for()
    page.get_by_role("button", name="Take back my last move").click()
    page.get_by_role("status").filter(has_text="Undone.").wait_for()
    game = client.get(f"/games/{game_id}").get_json()
    assert game["version"] == before and game["generation"] == 1
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version === '{before}'")


def test_one_seat_at_most_is_me_in_the_lobby(live_server, context, console):
    """The table plays one seat: choosing "Me" for a second seat makes the first an invited human, so no seat
    is left without a way in."""
    page = console.watch(context.new_page())
    page.goto(live_server.url + "/")
    page.get_by_label("Game", exact=True).select_option("puerto_rico")
    page.get_by_label("Players").select_option("2")
    page.get_by_label("Seat 2", exact=True).select_option("me")
    assert page.get_by_label("Seat 1", exact=True).input_value() == "human"
    page.get_by_role("button", name="Create game").click()
    assert "#seat=" in page.get_by_label("Invite link for seat 1").input_value()


def test_the_lobby_names_my_seat_and_remembers_the_name(live_server, context, console):
    page = console.watch(context.new_page())
    page.goto(live_server.url + "/")
    page.get_by_label("Your name").fill("Ada Lovelace")
    game_id = create_from_lobby(page, live_server.url, "murano", keep_page=True)
    seats = live_server.client().get(f"/games/{game_id}").get_json()["seats"]
    assert seats[0]["name"] == "Ada Lovelace" and seats[0]["kind"] == "human", seats
    page.goto(live_server.url + "/")
    assert page.get_by_label("Your name").input_value() == "Ada Lovelace"


def test_the_lobby_says_a_game_needs_a_person_before_sending_one_of_bots_only(live_server, context, console):
    """The server refuses a game of bots only without an integrator's key; the form says so itself, in a
    player's words, and sends nothing."""
    page = console.watch(context.new_page())
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(live_server.url + "/")
    page.get_by_label("Game", exact=True).select_option("amerigo")
    page.get_by_label("Players").select_option("2")
    page.get_by_label("Seat 1", exact=True).select_option("bot:easy")
    page.get_by_role("button", name="Create game").click()
    alert = page.get_by_role("alert")
    assert "a person" in alert.inner_text() and "Me" in alert.inner_text(), alert.inner_text()
    assert posts == []
    shot(page, "lobby-bots-only")


def test_a_long_list_of_moves_is_narrowed_field_by_field(live_server, context, console):
    """Archipelago's set-up offers dozens of placements (tile, face, place, rotation): one list per field of
    the moves narrows them down to the move wanted, and that move is played."""
    page = console.watch(context.new_page())
    create_from_lobby(
        page,
        live_server.url,
        "archipelago",
        players=3,
        seats=["me", "bot:easy", "bot:easy"],
        options={"length": "short"},
    )
    page.locator("button.choice:not([disabled])").first.wait_for()
    total = page.locator("button.choice").count()
    assert total > 30, total
    # a place picked in the list, then another place on the board: the board's choice starts afresh, not narrowed
    # by the pick too (which would leave none)
    position = page.get_by_label("Position", exact=True)
    picked = position.locator("option").nth(1).inner_text()
    position.select_option(index=1)
    page.locator("svg g.playable", has_not_text=f"Empty hex {picked}").first.click()
    heading = page.locator("section h2", has_text="Moves for that piece")
    assert re.search(rf"\(([1-9]\d*) of {total}\)", heading.inner_text()), heading.inner_text()
    assert page.locator("button.choice").count() > 0
    page.get_by_role("button", name="Show all moves").click()
    assert page.get_by_role("heading", name=f"Your moves ({total})").is_visible()
    shown = total
    for label in ("Tile", "Face", "Position", "Rotation"):
        narrowing = page.get_by_label(label, exact=True)
        values = narrowing.locator("option").all_inner_texts()
        assert values[0] == "any" and len(values) >= 2, (label, values)  # "any", then what the others leave
        if len(values) == 2:
            continue  # one value left for this field: choosing it narrows nothing
        narrowing.select_option(index=1)
        assert page.get_by_label(label, exact=True).evaluate("el => el === document.activeElement")
        fewer = page.locator("button.choice").count()
        assert fewer < shown, (label, fewer, shown)
        shown = fewer
    assert shown == 1 and page.get_by_role("heading", name=f"Your moves (1 of {total})").is_visible()
    shot(page, "moves-narrowed")
    before = page.locator("#version").get_attribute("data-version")
    page.locator("button.choice:not([disabled])").click()
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version !== '{before}'")
    # the next decision's moves are shown whole: the picks went with the list they narrowed
    page.locator("button.choice:not([disabled])").first.wait_for()
    count = page.locator("button.choice").count()
    assert page.get_by_role("heading", name=f"Your moves ({count})").is_visible()


def test_the_field_lists_name_their_values_as_a_player_reads_them(live_server, context, console):
    page = console.watch(context.new_page())
    page.goto(live_server.url + "/")
    page.get_by_role("heading", name="Lobby").wait_for()
    said = page.evaluate(
        """async () => {
          const { fieldText } = await import('/web/play.js');
          const { gameType } = await import('/web/util.js');
          const murano = { type: await gameType('murano') };
          const archipelago = { type: await gameType('archipelago') };
          return [
            fieldText(murano, 'NAVAGERO:r1c0'),
            fieldText(archipelago, { q: 1, r: -1 }),
            fieldText(archipelago, { CATTLE: 1 }),
            fieldText(archipelago, { FISH: 2, WOOD: 1 }),
            fieldText(archipelago, []),
            fieldText(archipelago, null),
            fieldText(archipelago, 3),
          ];
        }"""
    )
    assert said[0] == "Navagero, row 2, column 1", said
    assert said[1] == "(1, -1)", said
    assert said[2] != said[3] and "1" in said[2] and "2" in said[3] and ":" not in said[2], said
    assert said[4:] == ["none", "none", "3"], said


def test_the_log_tells_a_run_of_the_same_move_once_with_its_count(live_server, context, console):
    """Puerto Rico's mayor phase puts colonists one by one: a run of the same line of the same seat is one line
    with the versions it spans and its count."""
    page = console.watch(context.new_page())
    create_from_lobby(page, live_server.url, "puerto_rico", players=3, seats=["me", "bot:easy", "bot:easy"])
    runs = page.locator(".log li", has=page.locator(".times"))
    moves = 0
    while not runs.count() and moves < 300:
        played = play_moves(page, 1)
        if not played:
            break  # the game is over
        moves += played
    assert runs.count(), f"no run of the same line in {moves} moves"
    # The bots move on after the click, and each new event redraws the log: wait until the move is the player's
    # again (nothing more arrives), then read and scroll the line each in one step, never through a held element.
    wait_for_my_move(page)
    span, times, text = runs.first.evaluate(
        "li => [li.querySelector('.v').textContent, li.querySelector('.times').textContent, li.textContent]"
    )
    first, last = (int(v) for v in span.split("–"))
    count = int(times.strip().lstrip("×"))
    assert count >= 2 and last - first + 1 == count, text
    events = live_server.client().get(f"/games/{game_id_of(page)}/events?after={first - 1}&limit={count}")
    said = events.get_json()["events"]
    assert [e["version"] for e in said] == list(range(first, last + 1)), said
    assert len({(e["type"], str(e["data"])) for e in said}) == 1, said  # the same event, over and over
    runs.first.evaluate("li => li.scrollIntoView({block: 'center'})")
    shot(page, "log-runs")


def test_undo_between_two_humans_is_asked_and_declined(live_server, browser, context, console):
    first = console.watch(context.new_page())
    first.goto(live_server.url + "/")
    first.get_by_label("Game", exact=True).select_option("puerto_rico")
    first.get_by_label("Players").select_option("2")
    first.get_by_label("Seat 2", exact=True).select_option("human")
    first.get_by_role("button", name="Create game").click()
    invite = first.get_by_label("Invite link for seat 2").input_value()
    assert "#seat=" in invite
    first.get_by_role("link", name="Go to my table").click()
    first.locator("#version").wait_for()
    first.get_by_text("Invite links").click()  # the creator's table keeps the links it handed out
    assert first.get_by_label("Invite link for seat 2").input_value() == invite
    other_context = browser.new_context(bypass_csp=True)
    try:
        second = console.watch(other_context.new_page())
        second.goto(invite)
        second.get_by_text("you are seat 2").wait_for()
        # play on whichever page may move until seat 2 has moved and seat 1 has moved after it
        client = live_server.client()
        moved = []
        while not (2 in moved and moved[-1] == 1):
            game = client.get(f"/games/{game_id_of(first)}").get_json()
            seat = game["to_act"][0] + 1
            page = first if seat == 1 else second
            page.wait_for_function(f"document.querySelector('#version')?.dataset.version === '{game['version']}'")
            page.locator("button.choice:not([disabled])").first.click()
            page.wait_for_function(f"document.querySelector('#version')?.dataset.version !== '{game['version']}'")
            moved.append(seat)
        second.wait_for_function(
            f"document.querySelector('#version')?.dataset.version === "
            f"'{client.get(f'/games/{game_id_of(first)}').get_json()['version']}'"
        )
        second.get_by_role("button", name="Take back my last move").click()
        second.get_by_role("status").filter(has_text="Undo requested").wait_for()
        first.reload()  # a reload keeps the seat (localStorage); the open request shows
        first.get_by_role("button", name="Decline undo").click()
        first.get_by_role("status").filter(has_text="Undo declined.").wait_for()
        shot(first, "undo-declined")
        # the seat that asked no longer reads that it waits for an answer
        second.get_by_role("status").filter(has_text="Undo requested").wait_for(state="detached", timeout=10_000)
    finally:
        other_context.close()


def test_a_phone_can_create_and_play_by_keyboard(live_server, browser, console):
    phone = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True, bypass_csp=True)
    try:
        page = console.watch(phone.new_page())
        create_from_lobby(page, live_server.url, "puerto_rico")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 380, f"the table is {width}px wide on a 375px screen"
        first = page.locator("button.choice:not([disabled])").first
        first.focus()
        assert page.evaluate("document.activeElement.classList.contains('choice')")
        before = page.locator("#version").get_attribute("data-version")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('#version')?.dataset.version !== '{before}'")
        shot(page, "phone")
    finally:
        phone.close()


# The places where a ring space's words wrap onto a new line: after a space or at a soft hyphen is a break a
# reader expects; anything else cut a word in the middle ("Product" / "ion").
WORD_BREAKS = """() => {
  const bad = [];
  for (const act of document.querySelectorAll('ol.ring .space .act')) {
    const text = act.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    let top = null;
    for (let i = 0; i < text.length; i += 1) {
      if (text.data[i] === '\u00ad' || text.data[i] === ' ') continue;
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const rects = range.getClientRects();  // after a hyphenation, the hyphen's box comes first
      const rect = rects[rects.length - 1];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2 && !' \u00ad'.includes(text.data[i - 1])) bad.push(act.textContent);
      top = rect.top;
    }
  }
  return bad;
}"""


def test_a_phone_shows_murano_s_ring_with_words_broken_only_between_syllables(live_server, browser, console):
    phone = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True, bypass_csp=True)
    try:
        page = console.watch(phone.new_page())
        create_from_lobby(page, live_server.url, "murano", players=3, seats=["me", "bot:easy", "bot:easy"])
        page.locator("ol.ring .space .act").first.wait_for()
        assert page.locator("ol.ring .space .act").count() == 18
        assert page.evaluate(WORD_BREAKS) == []
        shot(page, "phone-murano-ring")
    finally:
        phone.close()


def test_four_seats_on_one_track_space_stay_inside_it(live_server, context, console):
    page = console.watch(context.new_page())
    create_from_lobby(page, live_server.url, "amerigo", players=4, seats=["me", "bot:easy", "bot:easy", "bot:easy"])
    marked = page.locator(".track .cell", has=page.locator(".marker"))
    marked.first.wait_for()
    # bots may move before the page shows the game (the turn order is drawn), but each moves one disc on one track
    # a turn: some start space still holds three or four seats
    most = 0
    for c in range(marked.count()):
        cell = marked.nth(c).bounding_box()
        markers = marked.nth(c).locator(".marker")
        most = max(most, markers.count())
        for i in range(markers.count()):
            box = markers.nth(i).bounding_box()
            assert cell["x"] <= box["x"] and box["x"] + box["width"] <= cell["x"] + cell["width"] + 0.5, (box, cell)
            assert cell["y"] <= box["y"] and box["y"] + box["height"] <= cell["y"] + cell["height"] + 0.5, (box, cell)
    assert most >= 3, most


def test_the_clock_of_the_seat_to_act_counts_down(live_server, context, console):
    page = console.watch(context.new_page())
    create_from_lobby(page, live_server.url, "puerto_rico", clock_minutes=5)
    mine = page.locator('.seats-bar .clock[data-seat="0"]')
    assert "running" in mine.get_attribute("class")
    first = mine.inner_text()
    assert re.fullmatch(r" · [45]:\d\d", first), first
    page.wait_for_function(
        "(t) => document.querySelector('.seats-bar .clock[data-seat=\"0\"]').textContent !== t", arg=first, timeout=3000
    )
    later = mine.inner_text()
    seconds = [int(m) * 60 + int(s) for m, s in (re.search(r"(\d+):(\d+)", x).groups() for x in (first, later))]
    assert seconds[1] < seconds[0]
    assert page.locator('.seats-bar .clock[data-seat="1"]').inner_text() == " · 5:00"


def test_a_refused_move_shows_the_apis_detail_and_the_table_recovers(live_server, context, console):
    page = console.watch(context.new_page())
    held = []  # hold the page's game stream so it cannot see the move made behind its back
    page.route(re.compile(r"/games/[^/]+/stream\?"), lambda route: held.append(route))
    game_id = create_from_lobby(page, live_server.url, "puerto_rico")
    token = page.evaluate(f"localStorage.getItem('tradewinds:seat:{game_id}')")
    client = live_server.client()
    auth = {"Authorization": f"Bearer {token}"}
    legal = client.get(f"/games/{game_id}/legal-commands", headers=auth).get_json()
    stored = client.post(f"/games/{game_id}/commands", headers=auth, json={"command": legal["commands"][-1]})
    assert stored.status_code == 200
    console.allow("status of 412")  # Chromium logs every 4xx answer to fetch()
    page.locator("button.choice:not([disabled])").first.click()
    alert = page.locator("p.error[role=alert]")
    alert.wait_for()
    assert "moved on before your move arrived" in alert.inner_text()  # said as a player would say it
    current = client.get(f"/games/{game_id}").get_json()["version"]
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version === '{current}'")
    shot(page, "refused-move")
    assert held, "the page follows the game's stream"
    assert page.locator("button.choice:not([disabled])").count() > 0  # and it can play on


def test_a_seat_follows_the_stream_with_tickets_that_no_log_line_shows(live_server, context, console):
    page = console.watch(context.new_page())
    streams = []
    page.on("request", lambda request: streams.append(request) if "/stream?" in request.url else None)
    game_id = create_from_lobby(page, live_server.url, "puerto_rico")
    page.locator("button.choice:not([disabled])").first.click()
    # the server ends each stream after STREAM_MAX_SECONDS (5 here): the page opens the next with a new ticket
    deadline = time.monotonic() + 12
    while len({r.url for r in streams}) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    tickets = [re.search(r"ticket=(twst_[\w-]+)", r.url).group(1) for r in streams]
    assert len(set(tickets)) >= 2, [r.url for r in streams]
    assert all("authorization" not in r.headers for r in streams)
    assert all("last_event_id=" in r.url for r in streams[1:]), "a new stream resumes after the last event seen"
    assert page.locator("#live-note").inner_text() == ""  # live by the stream, not by polling
    lines = live_server.log.lines
    assert any("ticket=[redacted]" in line for line in lines), lines[-5:]
    assert not [line for line in lines if any(ticket in line for ticket in tickets)]
    stored = page.evaluate("JSON.stringify(localStorage) + location.href + document.body.innerHTML")
    assert not any(ticket in stored for ticket in tickets)
    # and a move the page did not make (another client on the same seat) shows through the stream
    token = page.evaluate(f"localStorage.getItem('tradewinds:seat:{game_id}')")
    client = live_server.client()
    auth = {"Authorization": f"Bearer {token}"}
    page.wait_for_function("document.querySelector('button.choice:not([disabled])')")
    legal = client.get(f"/games/{game_id}/legal-commands", headers=auth).get_json()
    assert (
        client.post(f"/games/{game_id}/commands", headers=auth, json={"command": legal["commands"][0]}).status_code
        == 200
    )
    version = client.get(f"/games/{game_id}").get_json()["version"]
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version === '{version}'", timeout=3000)


def test_without_the_stream_the_table_falls_back_to_long_polling(live_server, context, console):
    page = console.watch(context.new_page())
    console.allow("EventSource")  # Chromium reports the refused stream
    console.allow("ERR_FAILED")
    page.route(re.compile(r"/games/[^/]+/stream\?"), lambda route: route.abort())
    polls = []
    page.on("request", lambda request: polls.append(request.url) if "wait=" in request.url else None)
    create_from_lobby(page, live_server.url, "puerto_rico")
    page.locator("#live-note").filter(has_text="live by polling").wait_for(timeout=10_000)
    before = page.locator("#version").get_attribute("data-version")
    page.locator("button.choice:not([disabled])").first.click()
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version !== '{before}'")
    assert polls, "the page long-polls the event log"


BAD_GATEWAY = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@pytest.mark.parametrize("outage", ["no answer", "a proxy's 502 page"])
def test_a_table_that_loses_the_server_says_so_and_comes_back_by_itself(live_server, context, console, outage):
    """A move sent while the server cannot be reached (no answer at all, or a proxy in front answering 502 while
    the server restarts): the page says the connection is lost (not a raw fetch error or an HTML page), keeps
    every move disabled, the board's too, and once the server answers again draws the game afresh, playable."""
    page = console.watch(context.new_page())
    console.allow("ERR_FAILED")  # Chromium reports each refused request
    console.allow("EventSource")
    console.allow("status of 502")
    create_from_lobby(page, live_server.url, "puerto_rico")
    page.wait_for_function("document.querySelector('button.choice:not([disabled])')")
    down = re.compile(r"/games/")
    if outage == "no answer":
        page.route(down, lambda route: route.abort())
    else:
        page.route(down, lambda route: route.fulfill(status=502, content_type="text/html", body=BAD_GATEWAY))
    page.locator("button.choice:not([disabled])").first.click()
    page.locator("p.status").filter(has_text="Connection lost").wait_for(timeout=5000)
    assert "cannot be reached" in page.locator("p.error[role=alert]").inner_text()
    assert page.locator("button.choice:not([disabled])").count() == 0
    assert page.locator(".board button:not([disabled])").count() == 0
    shot(page, "connection-lost")
    page.unroute(down)
    page.wait_for_function("document.querySelector('button.choice:not([disabled])')", timeout=15_000)
    page.wait_for_function("document.querySelector('p.error[role=alert]').textContent === ''", timeout=5000)
    assert "Connection lost" not in page.locator("p.status").inner_text()
    versions = page.locator("ol.log li .v").all_inner_texts()
    assert len(versions) == len(set(versions)), versions  # the log read again shows each event once
    page.wait_for_function("document.querySelector('#live-note').textContent === ''", timeout=10_000)  # streamed again


def test_a_move_made_on_the_board_is_told_in_the_log(live_server, context, console):
    page = console.watch(context.new_page())
    create_from_lobby(page, live_server.url, "puerto_rico")
    board = page.locator(".board")
    role = board.get_by_role("button", name=re.compile(r"^Take the settler role"))
    role.focus()  # board pieces are keyboard controls with the legal move's label
    page.keyboard.press("Enter")
    log = page.locator("ol.log")
    log.filter(has_text="Player 1 takes the settler role.").wait_for()
    plantation = board.get_by_role("button", name=re.compile(r"^Take a face-up \w+ plantation"))
    plantation.first.click()
    log.filter(has_text=re.compile(r"Player 1 takes an? \w+ plantation\.")).wait_for()
    assert "{" not in log.inner_text(), "events read as sentences, not raw fields"
    # a line about a player carries that player's dot; a line about the game, none (whoever's move brought it)
    assert "s0" in log.locator("li", has_text="Player 1 takes the settler role.").get_attribute("class")
    assert "game" in log.locator("li", has_text="The game starts with").get_attribute("class")


def test_puerto_rico_s_buildings_for_sale_read_cheapest_first_as_on_the_board(live_server, context, console):
    """A player looks for what they can afford: the supply is laid out by cost (names in order within a cost), as
    the board's columns are, not in the alphabet's order."""
    page = console.watch(context.new_page())
    create_from_lobby(page, live_server.url, "puerto_rico")
    tags = page.locator("ul.supply li .tag")
    tags.first.wait_for()
    costs = [int(re.match(r"(\d+) doubloon", text).group(1)) for text in tags.all_inner_texts()]
    names = page.locator("ul.supply li strong").all_inner_texts()
    assert len(costs) == len(names) > 10 and costs == sorted(costs), costs
    for cost in set(costs):
        same = [name for name, c in zip(names, costs, strict=True) if c == cost]
        assert same == sorted(same), same


def test_a_refused_undo_shows_why(live_server, context, console):
    page = console.watch(context.new_page())
    held = []  # the page does not hear of the undo made behind its back
    page.route(re.compile(r"/games/[^/]+/stream\?"), lambda route: held.append(route))
    game_id = create_from_lobby(page, live_server.url, "puerto_rico")
    client = live_server.client()
    before = client.get(f"/games/{game_id}").get_json()["version"]
    page.locator("button.choice:not([disabled])").first.click()
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version !== '{before}'")
    token = page.evaluate(f"localStorage.getItem('tradewinds:seat:{game_id}')")
    undone = client.post(
        f"/games/{game_id}/undo", headers={"Authorization": f"Bearer {token}"}, json={"to_version": before}
    )
    assert undone.status_code == 200 and undone.get_json()["status"] == "done"
    console.allow("status of 4")  # Chromium logs the refused request
    page.get_by_role("button", name="Take back my last move").click()
    note = page.get_by_role("status").filter(has_text="Undo refused:")
    note.wait_for()
    assert "to_version must be from" in note.inner_text()  # the API's detail, word for word


def test_a_refresh_that_ends_while_a_move_is_sent_leaves_the_old_moves_disabled(live_server, context, console):
    """A refresh started before a click may end while the move is on its way: it must not enable the buttons of
    the version that move replaces (a second click would go out with a stale If-Match)."""
    page = console.watch(context.new_page())
    streams, legal_reads, moves = [], [], []
    page.route(re.compile(r"/games/[^/]+/stream\?"), lambda route: streams.append(route))
    create_from_lobby(page, live_server.url, "puerto_rico")
    choices = page.locator("button.choice:not([disabled])")
    choices.first.wait_for()
    before = page.locator("#version").get_attribute("data-version")
    page.route("**/legal-commands", lambda route: legal_reads.append(route))
    page.route("**/commands", lambda route: moves.append(route))
    # a live event makes the page refresh; its legal-commands read is held, so that refresh is still going
    while not streams:
        page.wait_for_timeout(20)
    streams.pop(0).fulfill(
        status=200,
        headers={"Content-Type": "text/event-stream"},
        body='event: game_event\ndata: {"version": 100000, "generation": -1, "type": "Nothing"}\n\n',
    )
    while not legal_reads:
        page.wait_for_timeout(20)
    choices.first.click()  # the move is sent (and held) while the refresh waits for its legal commands
    while not moves:
        page.wait_for_timeout(20)
    with page.expect_response("**/legal-commands"):
        legal_reads.pop(0).continue_()
    page.wait_for_timeout(200)
    assert choices.count() == 0, "a refresh drew the old version's moves while the move was on its way"
    page.unroute("**/legal-commands")
    moves.pop(0).continue_()
    page.wait_for_function(f"document.querySelector('#version')?.dataset.version !== '{before}'")


def test_the_first_seat_aborts_from_the_table_and_the_table_says_it_ended(live_server, context, console):
    page = console.watch(context.new_page())
    game_id = create_from_lobby(page, live_server.url, "puerto_rico")
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Abort game").click()
    page.get_by_role("heading", name="Game ended").wait_for()
    assert "aborted" in page.locator("p.status").inner_text()
    assert page.locator("p.status .spinner").count() == 0  # nothing is awaited any more
    assert page.locator("section.undo").is_hidden() and page.locator("section.leave").is_hidden()
    assert live_server.client().get(f"/games/{game_id}").get_json()["status"] == "aborted"
    shot(page, "table-aborted")
    page.goto(live_server.url + "/")  # the lobby lists it among the ended games, said to be aborted
    ended = page.get_by_role("region", name="Ended games").locator(
        "li", has=page.locator(f'a[href="/?replay={game_id}"]')
    )
    assert "aborted" in ended.inner_text(), ended.inner_text()
    # the game on one line, then its facts on their own line (a phone wrapped them with a "·" opening a line)
    assert ended.locator(".game-title").inner_text().endswith("Puerto Rico — Player 1, easy bot")
    assert re.fullmatch(r"move \d+ · .+ · aborted", ended.locator(".game-facts").inner_text())
    shot(page, "lobby-ended")


def test_a_game_against_bots_that_ended_is_played_again_with_the_same_set_up(live_server, context, console):
    page = console.watch(context.new_page())
    page.goto(live_server.url + "/")
    page.get_by_label("Your name").fill("Grace")
    first = create_from_lobby(
        page,
        live_server.url,
        "archipelago",
        players=3,
        seats=["bot:easy", "me", "bot:medium"],
        options={"length": "short"},
        keep_page=True,
    )
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Abort game").click()
    page.get_by_role("heading", name="Game ended").wait_for()
    client = live_server.client()
    page.get_by_role("button", name="Play again with the same set-up").click()
    page.wait_for_url(re.compile(r"\?game=(?!" + first + r")"))
    page.locator("#version").wait_for()
    second = game_id_of(page)
    old, new = client.get(f"/games/{first}").get_json(), client.get(f"/games/{second}").get_json()
    assert second != first and new["game_type"] == "archipelago" and new["status"] == "active"
    assert [(s["kind"], s["level"], s["name"]) for s in new["seats"]] == [
        (s["kind"], s["level"], s["name"]) for s in old["seats"]
    ]
    assert new["seats"][1]["name"] == "Grace" and new["state"]["options"] == old["state"]["options"]
    assert new["state"]["options"]["length"] == "short"
    assert page.get_by_text("you are seat 2").is_visible()


def test_a_seat_opened_from_a_link_plays_again_with_the_set_up_the_game_says(live_server, context, console):
    """A game set up elsewhere (a site, over the API) and played from its seat link: once over (here the person
    resigned, and a bot took the seat), this browser can play it again from what the game read says, its options,
    clock and listing included, with the person in the seat again."""
    client = live_server.client()
    body = {
        "game_type": "archipelago",
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "human", "name": "Ada"}],
        "options": {"length": "short"},
        "clock": {"bank_seconds": 900, "increment_seconds": 5, "on_timeout": "forfeit"},
        "on_resign": "bot",
        "resign_level": "easy",
        "public": False,
    }
    created = client.post("/games", json=body).get_json()
    page = console.watch(context.new_page())
    page.goto(f"{live_server.url}/?game={created['id']}#seat={created['seat_tokens'][0]['token']}")
    page.get_by_text("you are seat 2").wait_for()
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("heading", name="Final scores").wait_for()
    assert client.get(f"/games/{created['id']}").get_json()["seats"][1]["kind"] == "bot"  # taken over, as read
    page.get_by_role("button", name="Play again with the same set-up").click()
    page.wait_for_url(re.compile(r"\?game=(?!" + created["id"] + r")"))
    page.get_by_text("you are seat 2").wait_for()
    new = client.get(f"/games/{game_id_of(page)}").get_json()
    assert new["status"] == "active" and new["options"] == created["options"] and new["options"]["length"] == "short"
    assert (new["on_resign"], new["resign_level"], new["public"]) == ("bot", "easy", False)
    assert [(s["kind"], s["level"], s["name"]) for s in new["seats"]] == [
        (s["kind"], s["level"], s["name"]) for s in created["seats"]
    ]
    assert (new["clock"]["bank_seconds"], new["clock"]["increment_seconds"], new["clock"]["on_timeout"]) == (
        900,
        5,
        "forfeit",
    )


def test_the_tab_title_says_when_the_move_is_mine(live_server, context, console):
    page = console.watch(context.new_page())
    page.goto(live_server.url + "/")
    page.get_by_label("Game", exact=True).select_option("puerto_rico")
    page.get_by_label("Players").select_option("2")
    page.get_by_label("Seat 2", exact=True).select_option("human")
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("link", name="Go to my table").click()
    page.locator("#version").wait_for()
    page.wait_for_function("document.title.startsWith('● Your turn')")
    for _ in range(10):  # moves of mine until the other human is to move
        page.wait_for_function(
            "document.querySelector('p.waiting') || document.querySelector('button.choice:not([disabled])')"
        )
        if page.locator("p.waiting").count():
            break
        page.locator("button.choice:not([disabled])").first.click()
    page.locator("p.waiting").wait_for()
    page.wait_for_function("document.title === 'Tradewinds — Puerto Rico'")


def test_a_kept_set_up_that_does_not_hold_together_gives_way_to_the_game_s_own(live_server, context, console):
    """localStorage holds whatever was written there: a set-up without its seats (an older page's, or edited by
    hand) is not sent; the ended table stays whole and plays again from what the game read says."""
    page = console.watch(context.new_page())
    game_id = create_from_lobby(page, live_server.url, "murano")
    page.evaluate(
        f"""localStorage.setItem('tradewinds:setup:{game_id}', '{{"body": {{"game_type": "murano"}}, "mine": 0}}')"""
    )
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Abort game").click()
    page.get_by_role("heading", name="Game ended").wait_for()
    page.reload()
    page.get_by_role("heading", name="Game ended").wait_for()
    page.get_by_role("button", name="Play again with the same set-up").click()
    page.wait_for_url(re.compile(r"\?game=(?!" + game_id + r")"))
    page.get_by_text("you are seat 1").wait_for()
    client = live_server.client()
    old, new = client.get(f"/games/{game_id}").get_json(), client.get(f"/games/{game_id_of(page)}").get_json()
    assert new["game_type"] == "murano" and new["options"] == old["options"]
    assert [(s["kind"], s["level"]) for s in new["seats"]] == [(s["kind"], s["level"]) for s in old["seats"]]


def test_a_seat_resigns_from_the_table_after_saying_so_twice(live_server, context, console):
    page = console.watch(context.new_page())
    game_id = create_from_lobby(page, live_server.url, "murano")
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        (dialog.dismiss if len(asked) == 1 else dialog.accept)()

    page.on("dialog", answer)
    resign = page.get_by_role("button", name="Resign")
    resign.click()  # dismissed: nothing is sent
    assert live_server.client().get(f"/games/{game_id}").get_json()["status"] == "active"
    shot(page, "table-leave-panel")
    resign.click()
    page.get_by_role("heading", name="Final scores").wait_for()  # one seat left in play: the game ends
    game = live_server.client().get(f"/games/{game_id}").get_json()
    assert game["status"] == "finished" and game["seats"][0]["resigned"] == "lose"
    assert "Resign?" in asked[0] and "Game over" in page.locator("p.status").inner_text()


def test_the_page_runs_under_its_content_security_policy(live_server, browser, console):
    """No test helper that evaluates JavaScript text here: the page's own policy is in force, and any script,
    style or request it refuses is a console error."""
    strict = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = console.watch(strict.new_page())
        for game_type in GAMES:
            create_from_lobby(page, live_server.url, game_type)
            policy = page.evaluate("() => document.querySelector('main') !== null")  # a function, not text: allowed
            assert policy
            version = page.locator("#version").get_attribute("data-version")
            page.locator("button.choice:not([disabled])").first.click()
            page.locator(f"#version:not([data-version='{version}'])").wait_for()
            page.locator(".board").first.wait_for()
        headers = page.request.get(live_server.url + "/").headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        shot(page, "table-under-csp")
    finally:
        strict.close()


def test_a_link_with_another_seat_token_does_not_replace_the_seat_this_browser_keeps(live_server, context):
    """A link's #seat= token is kept only when the browser keeps none for the game, or the server refuses the one it
    keeps (the seat tokens were reissued): a link someone else made cannot take this browser's seat away."""
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]
    made = live_server.client().post("/games", json={"game_type": "puerto_rico", "seats": seats}).get_json()
    gid, mine, theirs = made["id"], made["seat_tokens"][0]["token"], made["seat_tokens"][1]["token"]
    page = context.new_page()
    kept = f"localStorage.getItem('tradewinds:seat:{gid}')"
    page.goto(f"{live_server.url}/?game={gid}#seat={mine}")
    page.wait_for_selector(".table-head")
    assert page.evaluate(kept) == mine
    for other in ("someone-elses", theirs):  # a made-up token, and another seat's real one
        page.goto("about:blank")
        page.goto(f"{live_server.url}/?game={gid}#seat={other}")
        page.wait_for_function(f"!location.hash && {kept} !== null")
        page.wait_for_timeout(300)
        assert page.evaluate(kept) == mine
    page.goto("about:blank")
    page.goto(f"{live_server.url}/?game={gid}")
    page.get_by_text("you are seat 1").wait_for()
    new = live_server.runtime.service.reissue_tokens(gid)[0]["token"]  # the kept token is refused from now on
    page.goto("about:blank")
    page.goto(f"{live_server.url}/?game={gid}#seat={new}")
    page.wait_for_function(f"{kept} === {new!r}")
