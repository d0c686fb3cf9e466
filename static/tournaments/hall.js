// The hall's projector: shows one slide at a time (the round's tables, then the standings,
// page by page), advancing every `data-every` seconds; after the last slide it re-fetches the
// slides so that new results and a new round appear without anyone touching the screen; and at
// once when the server says the results or the round changed.
document.addEventListener("DOMContentLoaded", function () {
  var hall = document.getElementById("hall");
  if (!hall) { return; }
  document.body.classList.add("js");
  var every = Math.max(1, parseInt(hall.dataset.every, 10) || 15) * 1000;
  var url = hall.dataset.fragmentUrl;
  var index = 0;

  function slides() { return hall.querySelectorAll(".slide"); }

  function show(i) {
    var all = slides();
    all.forEach(function (slide, n) { slide.classList.toggle("active", n === i); });
    if (window.scrollBoxes) window.scrollBoxes();  // the shown slide's wide table: keyboard-scrollable
    var current = all[i];
    hall.dataset.showing = current ? current.dataset.kind + ":" + current.dataset.page : "";
  }

  function reload(done) {
    if (!window.fetch) { window.location.reload(); return; }
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) { hall.innerHTML = html; } done(); })
      .catch(function () { done(); });
  }

  function next() {
    var count = slides().length;
    if (index + 1 < count) {
      index += 1;
      show(index);
      return;
    }
    reload(function () { index = 0; show(index); });
  }

  // a result or a new round pushed by the server (static/js/live.js): new data at once, on
  // the slide being shown
  hall.addEventListener("live:refresh", function () {
    reload(function () {
      index = Math.min(index, Math.max(0, slides().length - 1));
      show(index);
      hall.dataset.refreshedAt = String(Date.now());
    });
  });

  show(0);
  setInterval(next, every);
});
