// Public results pages: live standings and crosstable re-fetch their table in place (the
// reader's scroll position stays); the round and table selectors apply on change.
// Every page works without JavaScript (a <noscript> meta refresh reloads live pages).
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("choose-form");
  if (form) {
    form.querySelectorAll("select").forEach(function (select) {
      select.addEventListener("change", function () { form.submit(); });
    });
    var submit = form.querySelector(".choose-submit");
    if (submit) { submit.hidden = true; }
  }

  var box = document.getElementById("results-box");
  if (!box || !box.dataset.refresh || !window.fetch) { return; }
  var every = Math.max(5, parseInt(box.dataset.refresh, 10) || 20) * 1000;
  var url = box.dataset.fragmentUrl;
  var timer = null;

  function refresh() {
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        box.innerHTML = html;
        box.dataset.refreshedAt = String(Date.now());
        var status = document.getElementById("results-status");
        // a finished round's snapshot no longer changes: stop asking
        if (status && status.dataset.source === "snapshot" && timer) {
          clearInterval(timer);
          timer = null;
        }
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }
  timer = setInterval(refresh, every);
});
