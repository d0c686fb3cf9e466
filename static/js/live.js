// Pages that update themselves. An element with data-live-socket (the WebSocket path) and
// data-live-parts (the parts it shows: "standings", "hall", "board", ...) is told over the socket
// when one of its parts changed, {"part", "round", "at"}. When the message carries the fragment
// itself ({..., "key", "v", "html"}, tournaments.live.content) and "key" is the element's
// data-live-key, the html is swapped in as it is: no request. Otherwise the element re-reads its
// data-fragment-url through the page's own cached, access-checked view, and swaps it in; with
// data-live-event it only dispatches "live:refresh" on itself (the hall's script re-reads). An
// element with data-live-read (public standings) first asks that address, answered by the push
// process from the cache (tournaments.results.reread): 200 is the table, anything else means
// "ask the page's own view", which then computes it.
// Versions: data-live-version is the version of what the element shows ("v" of a pushed
// fragment, the X-Live-Version header of a read one); a fragment older than it is never swapped
// in, whichever way it came and in whatever order the answers arrive.
// While the socket is not open (refused, blocked, the server without WebSockets) the element
// polls every data-refresh seconds instead, and the socket is tried again with a growing pause.
// data-live-state says which: "push" or "polling". The socket is opened with ?lang= of the page
// (<html lang>): the language of the fragments it is pushed; a message carrying one comes as a
// binary frame (UTF-8 JSON, encoded once by the server for every socket).
(function () {
  "use strict";
  var MAX_PAUSE = 30000;
  var sockets = {};

  function socketUrl(path) {
    var lang = document.documentElement.lang;
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path +
      (lang ? (path.indexOf("?") < 0 ? "?" : "&") + "lang=" + encodeURIComponent(lang) : "");
  }

  // one socket per path, shared by the elements that listen to it
  function connect(path) {
    if (sockets[path]) { return sockets[path]; }
    var entry = { open: false, opened: false, listeners: [], pause: 1000, ws: null };
    sockets[path] = entry;
    function tell(state) { entry.listeners.forEach(function (l) { l.state(state); }); }
    function open() {
      var ws;
      try { ws = new WebSocket(socketUrl(path)); } catch (e) { retry(); return; }
      entry.ws = ws;
      ws.binaryType = "arraybuffer";  // a message carrying a fragment: UTF-8 JSON, binary
      ws.onopen = function () {
        entry.open = true;
        entry.pause = 1000;
        tell("push");
        // something may have changed while the socket was down: read once now
        if (entry.opened) { entry.listeners.forEach(function (l) { l.changed(null); }); }
        entry.opened = true;
      };
      ws.onmessage = function (event) {
        var message;
        try {
          message = JSON.parse(typeof event.data === "string" ? event.data
            : new TextDecoder().decode(event.data));
        } catch (e) { return; }
        entry.listeners.forEach(function (l) { l.changed(message); });
      };
      ws.onclose = function () {
        var was = entry.open;
        entry.open = false;
        tell("polling");
        retry(was);
      };
    }
    function retry(wasOpen) {
      if (wasOpen) { entry.pause = 1000; }
      var pause = entry.pause + Math.floor(Math.random() * 500);
      entry.pause = Math.min(MAX_PAUSE, entry.pause * 2);
      setTimeout(open, pause);
    }
    if (window.WebSocket) { open(); }
    return entry;
  }

  function watch(box) {
    var parts = (box.dataset.liveParts || "").split(/\s+/);
    var round = box.dataset.liveRound || "";
    var url = box.dataset.fragmentUrl;
    var every = Math.max(5, parseInt(box.dataset.refresh, 10) || 20) * 1000;
    var busy = false;
    var again = false;
    var stopped = false;
    var entry = connect(box.dataset.liveSocket);

    // a fragment of this version or newer may be swapped in (no version: always)
    function current(version) {
      var shown = parseFloat(box.dataset.liveVersion);
      return version === null || isNaN(version) || isNaN(shown) || version >= shown;
    }

    function versionOf(response) {
      var header = response.headers.get("X-Live-Version");
      return header === null ? null : parseFloat(header);
    }

    function apply(html, version) {
      if (!current(version)) { return; }  // an older state than the one shown
      box.innerHTML = html;
      if (version !== null && !isNaN(version)) { box.dataset.liveVersion = String(version); }
      if (window.scrollBoxes) { window.scrollBoxes(); }  // a new wide table: keyboard-scrollable
      box.dataset.refreshedAt = String(Date.now());
      box.dispatchEvent(new CustomEvent("live:updated"));
      // a finished round's snapshot no longer changes: stop listening
      if (box.dataset.liveStop && box.querySelector(box.dataset.liveStop)) { stopped = true; }
    }

    // the table from the push process when it has one read after since; null: ask the view
    function fastRead(since) {
      var read = box.dataset.liveRead;
      if (!since || !read) { return Promise.resolve(null); }
      return fetch(read + (read.indexOf("?") < 0 ? "?" : "&") + "since=" + since, { credentials: "omit" })
        .then(function (response) {
          if (response.status !== 200) { return null; }
          return response.text().then(function (html) { return { html: html, version: versionOf(response) }; });
        })
        .catch(function () { return null; });
    }

    // since: when the pushed change was committed (seconds); the fragment must be read after
    function refresh(since) {
      if (stopped) { return; }
      if (box.dataset.liveEvent !== undefined) {
        box.dispatchEvent(new CustomEvent("live:refresh", { detail: { since: since } }));
        return;
      }
      if (!url || !window.fetch) { return; }
      if (busy) { again = since || again || true; return; }
      busy = true;
      var target = url + (since ? (url.indexOf("?") < 0 ? "?" : "&") + "since=" + since : "");
      fastRead(since)
        .then(function (read) {
          if (read !== null) { return read; }
          return fetch(target, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
            .then(function (response) {
              if (!(response.ok || response.status === 400)) { return null; }
              return response.text().then(function (html) { return { html: html, version: versionOf(response) }; });
            });
        })
        .then(function (read) {
          if (read === null || stopped) { return; }
          apply(read.html, read.version);
        })
        .catch(function () { /* offline for a moment: the next change or poll tries again */ })
        .then(function () {
          busy = false;
          if (again) { var next = again === true ? null : again; again = false; refresh(next); }
        });
    }

    function setState(state) {
      box.dataset.liveState = state;
      var label = document.getElementById("live-state");
      if (label) { label.textContent = label.dataset[state] || ""; }
    }

    entry.listeners.push({
      changed: function (message) {
        if (message === null) { refresh(null); return; }
        if (parts.indexOf(message.part) < 0) { return; }
        // the board of one round needs only its round's changes
        if (round && message.round && String(message.round) !== round) { return; }
        // the fragment itself, for this element: swapped in, nothing to read
        if (typeof message.html === "string" && box.dataset.liveKey &&
            message.key === box.dataset.liveKey && box.dataset.liveEvent === undefined) {
          if (!stopped) { apply(message.html, typeof message.v === "number" ? message.v : null); }
          return;
        }
        refresh(typeof message.at === "number" ? message.at : null);
      },
      state: setState,
    });
    setState(entry.open ? "push" : "polling");
    setInterval(function () { if (!entry.open) { refresh(null); } }, every);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live-socket]").forEach(watch);
  });
})();
