// The desk's copy of a paper protocol (scoring/views/transcription.py): a row per deal, typed on
// a laptop. Tab goes from field to field; Enter goes to the next deal (a new row at the end);
// the points take digits only. After each change the rows are judged by the server and each
// row's check and the totals on paper and by the rules are shown; «Accept the rules' amount»
// puts the rules' amount in the row and keeps the paper's for the deal's history.
//
// The form is the truth (it also posts without this script). What is typed is kept in
// localStorage per match and version until it is recorded, and every row carries its own key
// (a UUID), so a save sent twice — no answer, a reload, no connection — records each deal once.
(function () {
  "use strict";

  var form = document.getElementById("transcribe-form");
  if (!form) return;
  var data = JSON.parse(document.getElementById("transcribe-data").textContent);
  var body = document.getElementById("paper-rows");
  var template = document.getElementById("row-template");
  var total = form.querySelector('input[name="row-TOTAL_FORMS"]');
  var totals = document.getElementById("paper-totals");
  var status = document.getElementById("paper-status");
  var note = document.getElementById("draft-note");
  var saveButton = document.getElementById("save-paper");
  var draftPrefix = "transcribe:" + data.match + ":";
  var draftKey = draftPrefix + data.version;
  var timer = null, seq = 0;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function rows() { return body.querySelectorAll("tr.paper-row"); }
  function firstField(row) { return row.querySelector("select, input:not([type=hidden])"); }

  function numberRows() {
    var stored = body.querySelectorAll("tr.stored").length;
    rows().forEach(function (row, i) { row.querySelector("td.n").firstChild.textContent = String(stored + i + 1); });
  }

  function addRow() {
    var index = +total.value;
    var html = template.innerHTML.replace(/__prefix__/g, String(index));
    var holder = document.createElement("tbody");
    holder.innerHTML = html;
    var row = holder.firstElementChild;
    row.querySelector("td.n").insertBefore(document.createTextNode(""), row.querySelector("td.n").firstChild);
    row.querySelector('input[name$="-key"]').value = newKey();
    row.querySelector("td.check").id = "check-" + index;
    body.appendChild(row);
    total.value = String(index + 1);
    numberRows();
    return row;
  }

  // ---------------------------------------------------------------- the keyboard
  // One key picks the result and the seat in either keyboard layout: д/d/1 domino, р/f/2 fish,
  // п/r/3 redeal; a seat by its letter or the Russian letter on the same key (т N, у E, ы S,
  // ц W), so the secretary never switches layouts.
  var RESULT_KEYS = { "д": "domino", "d": "domino", "1": "domino", "р": "fish", "f": "fish",
                      "2": "fish", "п": "redeal", "r": "redeal", "3": "redeal" };
  var SEAT_KEYS = { "n": "N", "т": "N", "e": "E", "у": "E", "s": "S", "ы": "S", "w": "W", "ц": "W" };

  function pick(select, value) {
    if (!select.querySelector('option[value="' + value + '"]')) return false;
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  }

  form.addEventListener("keydown", function (event) {
    var field = event.target;
    var row = field.closest && field.closest("tr.paper-row");
    if (!row) return;
    var key = (event.key || "").toLowerCase();
    if (field.tagName === "SELECT" && !event.ctrlKey && !event.altKey && !event.metaKey) {
      var wanted = /-result$/.test(field.name) ? RESULT_KEYS[key]
        : /-by$/.test(field.name) ? SEAT_KEYS[key] : null;
      if (wanted && pick(field, wanted)) { event.preventDefault(); return; }
    }
    if (event.key === "Enter") {
      event.preventDefault();
      var next = row.nextElementSibling || addRow();
      firstField(next).focus();
      return;
    }
    // the points written: digits only
    if (/-written_/.test(field.name) && event.key.length === 1 && !/[0-9]/.test(event.key)
        && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
    }
  });
  form.addEventListener("input", function (event) {
    var field = event.target;
    if (/-written_/.test(field.name) && /\D/.test(field.value)) field.value = field.value.replace(/\D/g, "");
    if (/-written_/.test(field.name)) {            // typed again: it is the paper's amount now
      var paper = form.elements[field.name.replace("-written_", "-paper_")];
      if (paper) paper.value = "";
    }
    changed();
  });
  form.addEventListener("change", changed);
  document.getElementById("add-row").addEventListener("click", function () { firstField(addRow()).focus(); });

  // «Accept the rules' amount»: the rules' amounts in the row, the paper's kept beside them.
  form.addEventListener("click", function (event) {
    var button = event.target.closest(".accept-rules");
    if (!button) return;
    var row = button.closest("tr.paper-row");
    var amounts = JSON.parse(button.dataset.accept);
    Object.keys(amounts).forEach(function (side) {
      var written = row.querySelector('input[name$="-written_' + side + '"]');
      var paper = row.querySelector('input[name$="-paper_' + side + '"]');
      if (!written) return;
      if (paper && paper.value === "") paper.value = written.value || "0";
      written.value = amounts[side];
    });
    changed();
  });

  // ---------------------------------------------------------------- judging and keeping
  function changed() {
    keep();
    clearTimeout(timer);
    timer = setTimeout(preview, 300);
  }

  function preview() {
    var mine = ++seq;
    fetch(form.dataset.previewUrl, {
      method: "POST", body: new FormData(form), credentials: "same-origin",
      headers: { "Accept": "application/json", "X-Requested-With": "fetch" },
    }).then(function (response) {
      if (!response.ok) throw new Error("preview " + response.status);
      return response.json();
    }).then(function (answer) {
      if (mine !== seq) return;
      rows().forEach(function (row) {
        var cell = row.querySelector("td.check");
        cell.innerHTML = answer.rows[row.dataset.row] || "";
        row.classList.toggle("bad", !!cell.querySelector(".check-bad"));
        row.classList.toggle("differs", !!cell.querySelector(".check-differs"));
      });
      totals.innerHTML = answer.totals;
      status.innerHTML = answer.totals;
    }).catch(function () {
      if (mine === seq) status.textContent = data.strings.offline;
    });
  }

  function fields() {
    var out = {};
    new FormData(form).forEach(function (v, k) { if (k !== "csrfmiddlewaretoken") out[k] = v; });
    return out;
  }
  function keep() {
    try { localStorage.setItem(draftKey, JSON.stringify(fields())); } catch (e) { /* private mode */ }
  }
  function drop() { try { localStorage.removeItem(draftKey); } catch (e) { /* private mode */ } }

  function restore() {
    var kept = null;
    try {
      Object.keys(localStorage).forEach(function (key) {
        if (key.indexOf(draftPrefix) === 0 && key !== draftKey) localStorage.removeItem(key);
      });
      kept = JSON.parse(localStorage.getItem(draftKey) || "null");
    } catch (e) { return false; }
    if (!kept) return false;
    var wanted = +kept["row-TOTAL_FORMS"] || 0;
    while (+total.value < wanted) addRow();
    var any = false;
    Object.keys(kept).forEach(function (name) {
      var field = form.elements[name];
      if (!field || name === "row-TOTAL_FORMS" || name === "expected_version") return;
      if (field.type === "checkbox") field.checked = true;
      else field.value = kept[name];
      if (kept[name] && !/-key$/.test(name)) any = true;
    });
    if (any) { note.textContent = data.strings.kept; note.hidden = false; }
    return any;
  }

  // Saving without leaving the page until the answer is in: a lost answer keeps the rows here.
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    keep();
    saveButton.disabled = true;
    fetch(form.action || window.location.href, {
      method: "POST", body: new FormData(form), credentials: "same-origin",
      headers: { "Accept": "application/json", "X-Requested-With": "fetch" },
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (response.ok && json) {
        return response.json().then(function (answer) { drop(); window.location.href = answer.redirect; });
      }
      if (response.status >= 500) throw new Error("server " + response.status);
      // Refused (400/403/409): nothing of it was recorded; the form posted as a page shows
      // the reasons (sending it again records nothing twice: every row has its key).
      form.submit();
    }).catch(function () {
      status.textContent = data.strings.offline;
    }).finally(function () { saveButton.disabled = false; });
  });

  rows().forEach(function (row) {
    var key = row.querySelector('input[name$="-key"]');
    if (key && !key.value) key.value = newKey();
  });
  form.classList.add("js");
  if (restore()) preview();
})();
