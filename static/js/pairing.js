// The round page while its pairing job runs: poll the small status JSON and show the progress;
// reload once the round is paired (or back to "new" with the error). Without JavaScript the
// page says the same after a manual reload.
document.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("round-status");
  if (!box || box.dataset.status !== "pairing") { return; }
  var bar = document.getElementById("pairing-progress");
  var text = document.getElementById("progress-text");
  var label = document.getElementById("status-label");
  function poll() {
    fetch(box.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (bar) { bar.value = data.progress; }
        if (text) { text.textContent = data.progress + "%"; }
        if (label) { label.textContent = data.status_label; }
        if (data.status !== "pairing") { window.location.reload(); return; }
        window.setTimeout(poll, 700);
      })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 300);
});
