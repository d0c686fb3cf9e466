// The referee's board for a fives match (RULES.md sections 15–23): the line of play tapped move by
// move (the strong form, section 17) or only the points of the scoring moves (the light form,
// section 19), then the hands left, then the deal is posted to the API as JSON.
//
// The board mirrors rules.fives.FivesTable (open ends, the spinner, the count): it offers only the
// ends a tile fits and shows each move's count and points at once. The server judges the deal
// anyway. As on the other games' sheet (docs/reliability.md, Retries) every deal carries a key
// (client_id) kept in localStorage with the deal until the server has answered, across reloads
// and offline periods; sending it again sends the same key and the server stores it once. The
// deal being tapped is kept in localStorage too, so that a reload does not lose it.
(function () {
  "use strict";

  var root = document.getElementById("fives-entry");
  if (!root) return;
  var data = JSON.parse(document.getElementById("fives-data").textContent);
  var S = data.strings;
  var draftKey = "fives:draft:" + data.match;
  var pendingKey = "fives:pending:" + data.match;
  var csrf = document.querySelector("#fives-form [name=csrfmiddlewaretoken]").value;
  var $ = function (id) { return document.getElementById(id); };

  function fmt(text, seat) { return text.replace("%(seat)s", seat); }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "10000000-1000-4000-8000-100000000000".replace(/[018]/g, function (c) {
      return (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16);
    });
  }

  // the table and the deal's end, as rules.fives reckons them (fives_table.js)
  var Table = function () { return new window.Fives.Table(data); };
  var points = window.Fives.points;

  // ---------------------------------------------------------------- the deal being tapped
  var draft = loadDraft();
  function blank() {
    return { mode: "strong", leader: data.leader || data.seats[0], play: [], scores: [],
             result: null, by: null, hands: {}, handSeat: null, key: newKey() };
  }
  function loadDraft() {
    try {
      var d = JSON.parse(localStorage.getItem(draftKey));
      // an amendment kept for a last deal that has changed since is dropped
      if (d && d.key && (!d.amend || (data.last && data.last.n === d.amend &&
                                      d.version === data.version))) return d;
    } catch (e) { /* no storage: a fresh deal */ }
    return blank();
  }
  function keep() { try { localStorage.setItem(draftKey, JSON.stringify(draft)); } catch (e) {} }

  var drawing = false, chosen = null;
  // several doubles being laid in one move («Телефон»): [{tile, end}], or null
  var multi = null;

  // Replays the line of play: the table, each move's count and points, whose turn it is.
  function replay() {
    var table = Table(), seat = draft.leader, rows = [], used = {};
    var idx = data.seats.indexOf(seat);
    draft.play.forEach(function (entry) {
      var row = { entry: entry };
      if (entry.tiles) {                    // several doubles in one move («Телефон»)
        row.count = table.playDoubles(entry.tiles.map(function (t) { return t.tile; }),
                                      entry.tiles.map(function (t) { return t.end; }));
        row.points = points(row.count);
        entry.tiles.forEach(function (t) { used[t.tile] = "played"; });
      } else if (entry.tile) {
        row.count = table.play(entry.tile, entry.end);
        row.points = points(row.count);
        used[entry.tile] = "played";
      } else if (entry.draw) {
        entry.draw.split(/\s+/).forEach(function (t) { if (t) used[t] = "drawn"; });
      }
      rows.push(row);
      if (!entry.draw) idx = (data.seats.indexOf(entry.seat) + 1) % data.seats.length;
      else idx = data.seats.indexOf(entry.seat);
    });
    return { table: table, rows: rows, next: data.seats[idx], used: used };
  }

  // The totals the protocol will have: those before this deal (before the last one when
  // amending it), the points scored so far and, once the deal is over, what its end adds to the
  // winner (the bonus and the eggs: fives_table.js), as the server will record them.
  function totals(rows) {
    var out = {}, before = draft.amend ? data.last.before : data;
    data.sides.forEach(function (s) { out[s] = before.totals[s] || 0; });
    if (draft.mode === "light") {
      draft.scores.forEach(function (s) { out[data.side_of[s.seat]] += s.points; });
    } else {
      rows.forEach(function (r) { if (r.points) out[data.side_of[r.entry.seat]] += r.points; });
    }
    var end = draft.result ? window.Fives.dealEnd(data, draft.result, draft.by, draft.hands,
                                                  before.eggs) : null;
    if (end && end.winner) out[end.winner] += end.bonus + end.eggs;
    if (end && end.writeOff) {   // «Телефон»: the losers write off, no total below 0
      data.sides.forEach(function (s) { out[s] = Math.max(out[s] - end.writeOff[s], 0); });
    }
    return { sides: out, end: end };
  }

  // ---------------------------------------------------------------- drawing the page
  function button(text, cls, onclick, pressed) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = text; if (cls) b.className = cls;
    if (pressed !== undefined) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.addEventListener("click", onclick);
    return b;
  }
  function say(text) { $("fives-message").textContent = text || ""; }

  function render() {
    var state = replay(), light = draft.mode === "light";
    document.querySelectorAll("[name=fives-mode]").forEach(function (r) {
      r.checked = r.value === draft.mode;
    });
    var seatsBox = $("fives-seats"); seatsBox.textContent = "";
    var toPlay = light ? (draft.scoreSeat || state.next) : state.next;
    if (!light && draft.play.length === 0) toPlay = draft.leader;
    data.seats.forEach(function (seat) {
      var b = button(seat, "seat-pick", function () {
        if (light) draft.scoreSeat = seat;
        else if (draft.play.length === 0) draft.leader = seat;
        keep(); render();
      }, seat === toPlay);
      b.dataset.seat = seat;
      seatsBox.appendChild(b);
    });
    var tot = totals(state.rows), end = tot.end;
    $("fives-totals").textContent = S.total + ": " + data.sides.map(function (s) {
      return s + " " + tot.sides[s];
    }).join(" · ") + (end && end.bonus ? " (" + S.bonus + " " + end.winner + " +" + end.bonus +
      ")" : "") + writeOffText(end) + " — " + fmt(S.to_play, toPlay);
    root.classList.toggle("amending", !!draft.amend);
    $("fives-amend-cancel").hidden = !draft.amend;
    if (draft.amend) showBar();
    $("fives-ends").textContent = light ? "" : S.ends + ": " + (state.table.openEnds().map(
      function (p) { return S.end_names[p[0]] + " " + p[1]; }).join(", ") || "—") +
      " · " + S.count + " " + (state.table.moves ? state.table.count() : 0) + domText(state.table);
    var line = $("fives-line"); line.textContent = "";
    if (light) {
      draft.scores.forEach(function (s) {
        var li = document.createElement("li"); li.textContent = s.seat + ": +" + s.points;
        line.appendChild(li);
      });
    } else {
      state.rows.forEach(function (r) {
        var li = document.createElement("li"), e = r.entry;
        if (e.tile || e.tiles) {
          var laid = e.tiles ? e.tiles.map(function (t) {
            return t.tile + " " + S.end_names[t.end]; }).join(" + ")
            : e.tile + " " + (e.end ? S.end_names[e.end] : S.lead);
          li.textContent = e.seat + " " + laid + " · " + S.count + " " + r.count +
            (r.points ? " · +" + r.points : "");
          if (r.points) li.className = "scored";
        } else if (e.draw) li.textContent = e.seat + " " + S.draws + " " + e.draw;
        else li.textContent = e.seat + " " + S.passes;
        line.appendChild(li);
      });
    }
    line.scrollTop = line.scrollHeight;   // the latest move in sight
    $("fives-board").hidden = false;
    $("fives-actions").hidden = light || !!draft.result;
    renderMulti(state, light);
    $("fives-finish").hidden = !!draft.result;
    $("fives-points").hidden = light ? !!draft.result : true;
    renderPoints(toPlay);
    renderEnds(state);
    renderHands(state);
    renderGrid(state);
    $("fives-save").hidden = !draft.result;
    keep();
  }

  function renderPoints(seat) {
    var box = $("fives-points"); box.textContent = "";
    if (box.hidden) return;
    var label = document.createElement("p"); label.textContent = fmt(S.score_for, seat);
    box.appendChild(label);
    for (var p = 5; p <= data.max_points; p += 5) {
      (function (p) {
        box.appendChild(button(String(p), "points-pick", function () {
          draft.scores.push({ seat: seat, points: p }); render();
        }));
      })(p);
    }
  }

  function renderEnds(state) {
    var box = $("fives-end-choice"); box.textContent = "";
    if (!chosen || draft.result) return;
    var label = document.createElement("span"); label.textContent = S.choose_end + " ";
    box.appendChild(label);
    freeEnds(state, chosen).forEach(function (end) {
      var b = button(S.end_names[end], "end-pick", function () {
        if (multi) multi.push({ tile: chosen, end: end });
        else draft.play.push({ seat: state.next, tile: chosen, end: end });
        chosen = null;
        render();
      });
      b.dataset.end = end;
      box.appendChild(b);
    });
  }

  function renderHands(state) {
    var box = $("fives-hands"), tabs = $("fives-hand-tabs");
    box.hidden = !draft.result; tabs.textContent = "";
    if (!draft.result) return;
    data.seats.forEach(function (seat) {
      if (draft.result === "domino" && seat === draft.by) return;
      if (!draft.handSeat) draft.handSeat = seat;
      var text = fmt(S.hands_of, seat) + ": " + ((draft.hands[seat] || []).join(" ") || "—");
      var b = button(text, "seat-pick", function () { draft.handSeat = seat; render(); },
                     seat === draft.handSeat);
      b.dataset.seat = seat;
      tabs.appendChild(b);
    });
  }

  function renderGrid(state) {
    var elsewhere = {};   // tiles put in another seat's hand
    if (draft.result) {
      Object.keys(draft.hands).forEach(function (seat) {
        if (seat !== draft.handSeat) draft.hands[seat].forEach(function (t) { elsewhere[t] = 1; });
      });
    }
    document.querySelectorAll("#tile-grid .tile").forEach(function (b) {
      var tile = b.dataset.tile;
      var played = draft.mode === "strong" && state.used[tile] === "played";
      var mine = draft.result ? !!draft.handSeat &&
        (draft.hands[draft.handSeat] || []).indexOf(tile) >= 0 : tile === chosen ||
        (!!multi && multi.some(function (m) { return m.tile === tile; }));
      b.querySelector(".owner").textContent = played ? "✓" : "";
      b.classList.toggle("mine", mine);
      b.classList.toggle("used", !mine && (played || !!elsewhere[tile]));
      b.setAttribute("aria-pressed", mine ? "true" : "false");
    });
  }

  // ---------------------------------------------------------------- «Телефон»
  // The ends a tile may go on now; in a several-doubles move, not one another double took.
  function freeEnds(state, tile) {
    return state.table.legalEnds(tile).filter(function (end) {
      return !multi || !multi.some(function (m) { return m.end === end; });
    });
  }
  function writeOffText(end) {
    if (!end || !end.writeOff) return "";
    var parts = data.sides.filter(function (s) { return end.writeOff[s]; }).map(function (s) {
      return s + " −" + end.writeOff[s];
    });
    return parts.length ? " (" + S.write_off + " " + parts.join(", ") + ")" : "";
  }
  function domText(table) {
    var dom = table.dom(), waiting = table.pendingEnds();
    if (!data.max_doubles || data.max_doubles < 2) return "";
    if (dom !== null) return " · " + S.dom + " " + dom + ":" + dom;
    if (waiting.length) {
      return " · " + S.dom_waiting + " " + waiting.map(function (e) {
        return S.end_names[e]; }).join(", ");
    }
    return "";
  }
  function addDouble(state, tile) {
    var h = window.Fives.halves(tile);
    var at = multi.map(function (m) { return m.tile; }).indexOf(tile);
    if (at >= 0) { multi.splice(at, 1); render(); return; }     // tapped again: taken back
    if (h[0] !== h[1]) { say(S.only_doubles); return; }
    if (multi.length >= data.max_doubles) { say(S.too_many_doubles); return; }
    var ends = freeEnds(state, tile);
    if (!ends.length) { say(S.no_fit); return; }
    if (ends.length === 1) multi.push({ tile: tile, end: ends[0] });
    else chosen = tile;
    say(""); render();
  }
  function renderMulti(state, light) {
    var start = $("fives-multi"), done = $("fives-multi-done");
    if (!start) return;
    var can = data.max_doubles > 1 && !light && !draft.result && draft.play.length > 0;
    start.hidden = !can;
    start.setAttribute("aria-pressed", multi ? "true" : "false");
    done.hidden = !can || !multi;
    done.disabled = !multi || multi.length < 2;
    if (multi) {
      say(S.several + ": " + (multi.map(function (m) {
        return m.tile + " " + S.end_names[m.end]; }).join(", ") || "—"));
    }
  }

  // ---------------------------------------------------------------- taps
  $("tile-grid").addEventListener("click", function (event) {
    var b = event.target.closest(".tile"); if (!b) return;
    var tile = b.dataset.tile, state = replay();
    if (draft.result) {                      // the hands left
      var hand = draft.hands[draft.handSeat] = draft.hands[draft.handSeat] || [];
      var at = hand.indexOf(tile);
      if (at >= 0) hand.splice(at, 1); else hand.push(tile);
      render(); return;
    }
    if (draft.mode === "light") return;
    if (drawing) {
      drawing = false;
      draft.play.push({ seat: state.next, draw: tile }); say(""); render(); return;
    }
    if (state.used[tile] === "played") { say(S.played); return; }
    if (multi) { addDouble(state, tile); return; }
    if (draft.play.length === 0) {
      draft.play.push({ seat: draft.leader, tile: tile }); say(""); render(); return;
    }
    var ends = state.table.legalEnds(tile);
    if (!ends.length) { chosen = null; say(S.no_fit); render(); return; }
    chosen = tile; say(""); render();
  });
  $("fives-draw").addEventListener("click", function () { drawing = true; chosen = null;
    say(S.draw_tap); render(); });
  $("fives-pass").addEventListener("click", function () {
    draft.play.push({ seat: replay().next, pass: true }); chosen = null; render();
  });
  $("fives-undo").addEventListener("click", function () {
    if (draft.result) { draft.result = null; draft.by = null; }   // back to the play
    else if (draft.mode === "light") draft.scores.pop();
    else draft.play.pop();
    chosen = null; drawing = false; multi = null; say(""); refusal(null); render();
  });
  document.querySelectorAll("[name=fives-mode]").forEach(function (r) {
    r.addEventListener("change", function () { draft.mode = r.value; render(); });
  });
  function finish(result) {
    var state = replay(), last = null;
    draft.play.forEach(function (e) { if (e.tile || e.tiles) last = e.seat; });
    draft.result = result;
    draft.by = result === "domino" ? (draft.mode === "light" ? (draft.scoreSeat || last) : last)
      : null;
    draft.handSeat = null; chosen = null; drawing = false; multi = null;
    void state; refusal(null); render();
  }
  $("fives-domino").addEventListener("click", function () { finish("domino"); });
  if ($("fives-multi")) {
    $("fives-multi").addEventListener("click", function () {
      multi = multi ? null : []; chosen = null; drawing = false; say(""); render();
    });
    $("fives-multi-done").addEventListener("click", function () {
      if (!multi || multi.length < 2) return;
      draft.play.push({ seat: replay().next, tiles: multi });
      multi = null; say(""); render();
    });
  }
  $("fives-fish").addEventListener("click", function () { finish("fish"); });

  // ---------------------------------------------------------------- saving
  function record() {
    var body = { result: draft.result, leader: draft.leader, client_id: draft.key, hands: {} };
    if (draft.by) body.by = draft.by;
    if (draft.time_up) body.time_up = true;
    if (draft.mode === "light") { body.scores = draft.scores; body.leader = draft.leader; }
    else body.play = draft.play;
    data.seats.forEach(function (seat) {
      if (draft.result === "domino" && seat === draft.by) return;
      body.hands[seat] = (draft.hands[seat] || []).join(" ");
    });
    return body;
  }
  // What saving sends: the next deal posted, or the last deal's amendment (PATCH of deal n,
  // made against the protocol's version on screen).
  function request() {
    var body = record();
    if (!draft.amend) return { url: data.api_url, method: "POST", body: body };
    delete body.client_id;
    body.expected_version = draft.version;
    return { url: data.api_url + draft.amend + "/", method: "PATCH", body: body };
  }
  // The refusal of the last save (its messages), or nothing: a change of the deal clears it.
  function refusal(answer) {
    var box = $("verdict"); box.textContent = "";
    if (!answer) return;
    box.textContent = S.refused;
    (answer.errors || []).forEach(function (e) {
      var p = document.createElement("p"); p.textContent = e.message; box.appendChild(p);
    });
  }
  function send(sent) {
    try { localStorage.setItem(pendingKey, JSON.stringify(sent)); } catch (e) {}
    $("fives-save").disabled = true;
    // A request whose answer never comes is given up after 15 s, then sent again (same key).
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, 15000) : null;
    return fetch(sent.url, {
      method: sent.method, credentials: "same-origin", body: JSON.stringify(sent.body),
      signal: abort ? abort.signal : undefined,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf,
                 "Accept-Language": document.documentElement.lang || "ru" },
    }).then(function (response) {
      clearTimeout(timer);
      return response.json().then(function (answer) {
        $("fives-save").disabled = false;
        localStorage.removeItem(pendingKey);
        if (response.ok) {
          localStorage.removeItem(draftKey);
          say(S.saved); window.location.reload();
          return;
        }
        if (response.status === 409 && answer.errors && answer.errors.some(function (e) {
          return e.code === "idempotency_conflict"; })) draft.key = newKey();
        refusal(answer);
        keep();
      });
    }).catch(function () {
      clearTimeout(timer);
      $("fives-save").disabled = false;
      var banner = $("network-banner"); banner.hidden = false; banner.textContent = S.kept_offline;
      setTimeout(resend, 5000);
    });
  }
  function resend() {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(pendingKey)); } catch (e) {}
    // a deal kept by an older page: the body alone, posted
    if (kept && !kept.body) kept = { url: data.api_url, method: "POST", body: kept };
    if (kept) send(kept);
  }
  $("fives-save").addEventListener("click", function () { send(request()); });

  // ---------------------------------------------------------------- amending the last deal
  function showBar() {
    var bar = $("fives-bar"), submit = document.getElementById("submit-link");
    if (bar) bar.hidden = false;
    if (submit) submit.parentNode.hidden = true;
  }
  // The last deal back on the board as it was saved: its line of play (or points), its end and
  // the hands left; saving replaces it (the server judges it after the deals before it).
  var amendButton = document.getElementById("amend-last");
  if (amendButton) amendButton.addEventListener("click", function () {
    var last = data.last.record;
    draft = blank();
    draft.amend = data.last.n; draft.version = data.version;
    draft.mode = last.play ? "strong" : "light";
    // as the board writes it (scoring.views.fives_page.board_record): tiles, ends
    draft.play = (last.play || []).map(function (e) { return Object.assign({}, e); });
    draft.scores = (last.scores || []).map(function (e) { return Object.assign({}, e); });
    draft.leader = last.leader || (draft.play[0] && draft.play[0].seat) || draft.leader;
    draft.result = last.result; draft.by = last.by || null; draft.time_up = last.time_up === true;
    Object.keys(last.hands || {}).forEach(function (seat) {
      draft.hands[seat] = String(last.hands[seat] || "").split(/\s+/).filter(Boolean);
    });
    chosen = null; drawing = false; say(""); refusal(null); render();
    root.scrollIntoView({ block: "start" });
  });
  $("fives-amend-cancel").addEventListener("click", function () {
    try { localStorage.removeItem(draftKey); } catch (e) {}
    window.location.reload();
  });
  window.addEventListener("online", resend);

  root.classList.add("js");
  render();
  resend();
})();
