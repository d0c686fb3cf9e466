// The round clock on a page (templates/scoring/_clock.html): counts down each second from the
// server's end time, corrected for this device's own clock (offset = server time − Date.now()
// when the page was drawn, then measured again at every re-sync), and re-syncs with the small
// JSON of data-url every 30 s, so a pause or added minutes reach the page without a reload.
// The last five minutes get the "last-minutes" class (high contrast on the hall screen); at zero
// the page says that time is up and, on the referee's page, ticks "time ran out" (data-check).
(function () {
  "use strict";
  var SYNC_MS = 30000;
  var LAST_MINUTES = 300;

  function format(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function start(box) {
    var time = box.querySelector(".clock-time");
    var note = box.querySelector(".clock-note");
    var state = {
      endsAt: box.dataset.endsAt ? Date.parse(box.dataset.endsAt) : null,
      paused: box.dataset.paused === "1",
      left: Number(box.dataset.left || 0),
      offset: Date.parse(box.dataset.now) - Date.now()
    };
    if (isNaN(state.offset)) { state.offset = 0; }
    var checked = false;
    var timers = [];

    // a clock inside a part of the page that the push re-reads (live.js) is replaced with the
    // part: the old one stops, and init() starts the new one
    function gone() {
      if (box.isConnected) { return false; }
      timers.forEach(function (id) { window.clearInterval(id); });
      document.removeEventListener("live:refresh", sync, true);
      document.removeEventListener("live:updated", sync, true);
      return true;
    }

    function remaining() {
      if (state.paused || state.endsAt === null) { return state.left; }
      return (state.endsAt - (Date.now() + state.offset)) / 1000;
    }

    function draw() {
      if (gone()) { return; }
      var left = remaining();
      var up = !state.paused && left <= 0;
      time.textContent = format(left);
      box.classList.toggle("paused", state.paused);
      box.classList.toggle("time-up", up);
      box.classList.toggle("last-minutes", !state.paused && !up && left <= LAST_MINUTES);
      var text = state.paused ? box.dataset.pausedText : (up ? box.dataset.upText : "");
      if (note.textContent !== text) { note.textContent = text; }
      if (up && !checked && box.dataset.check) {
        // the deal in play is the last one: the server marks it anyway, the form says so too
        var input = document.querySelector(box.dataset.check);
        if (input && !input.checked) { input.checked = true; }
        checked = true;
      }
    }

    function sync() {
      if (gone()) { return; }
      var sent = Date.now();
      fetch(box.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (!data) { return; }
          var clock = data.clock;
          if (!clock) { box.hidden = true; return; }
          box.hidden = false;
          var back = Date.now();
          // the server read its clock about halfway through the request
          state.offset = Date.parse(clock.now) - (sent + back) / 2;
          state.endsAt = clock.ends_at ? Date.parse(clock.ends_at) : null;
          state.paused = !!clock.paused;
          state.left = Number(clock.left || 0);
          draw();
        })
        .catch(function () { /* offline: keep counting with the last known end */ });
    }

    draw();
    timers.push(window.setInterval(draw, 1000));
    if (box.dataset.url) {
      timers.push(window.setInterval(sync, SYNC_MS));
      // a pushed change of the page (live.js: a round saved, the clock's action included) is a
      // reason to re-read the clock at once rather than at the next half-minute; capture, as
      // live.js's events do not bubble
      document.addEventListener("live:refresh", sync, true);
      document.addEventListener("live:updated", sync, true);
    }
  }

  function init() {
    var boxes = document.querySelectorAll(".round-clock[data-url]");
    for (var i = 0; i < boxes.length; i++) {
      if (!boxes[i].dataset.started) { boxes[i].dataset.started = "1"; start(boxes[i]); }
    }
  }
  // a part of the page swapped in by live.js may bring a clock (the personal page's)
  document.addEventListener("live:updated", init, true);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
