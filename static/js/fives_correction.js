// The move-list editor of the correction page for a game recorded move by move
// (scoring/views/fives_editor.py): the chief referee picks a deal by its number, changes a move
// (its tile from the tile grid, its end among those the tile fits, a draw or a pass), and sees
// the deal and the whole protocol judged again before saving.
//
// The page works without this script: the editor's fields belong to the correction form and its
// buttons submit it. The script posts the same form to the preview instead (one reading of the
// fields, the server's) and swaps in what it answers: the judged protocol, the line by Save, the
// editor as the server reads it and the deals' lines. The ends a tile fits come from the fives
// board's table (fives_table.js), replayed over the moves before the one being changed.
(function () {
  "use strict";

  var root = document.getElementById("correction");
  var form = document.getElementById("correct-form");
  var box = document.getElementById("move-editor-box");
  if (!root || !form || !box) return;
  var data = JSON.parse(document.getElementById("correction-data").textContent);
  var S = data.strings;
  var review = document.getElementById("review");
  var status = document.getElementById("correct-status");
  var selected = null;   // the entry whose tile is being chosen on the grid
  var seq = 0;

  // What is being corrected is kept in this browser per match and version until it is saved,
  // as on the other games' correction page (correction.js): a reload loses nothing.
  var draftPrefix = "correction:" + data.match + ":", draftKey = draftPrefix + data.version;
  function keep() {
    try {
      localStorage.setItem(draftKey, JSON.stringify({ deals: form.elements.deals.value,
                                                      reason: form.elements.reason.value }));
    } catch (e) { /* private mode: the form still holds it */ }
  }
  function restore() {
    try {
      Object.keys(localStorage).forEach(function (key) {
        if (key.indexOf(draftPrefix) === 0 && key !== draftKey) localStorage.removeItem(key);
      });
      var kept = JSON.parse(localStorage.getItem(draftKey) || "null");
      if (!kept || (kept.deals === form.elements.deals.value &&
                    kept.reason === form.elements.reason.value)) return false;
      form.elements.deals.value = kept.deals;
      form.elements.reason.value = kept.reason;
      var note = document.getElementById("draft-note");
      note.textContent = S.kept; note.hidden = false;
      return true;
    } catch (e) { return false; }
  }

  function post(name, value) {
    var body = new FormData(form);
    body.delete("action"); body.delete("pick");
    body.set(name, value);
    var focused = document.activeElement && box.contains(document.activeElement)
      ? document.activeElement.name : null;
    var mine = ++seq;
    review.classList.add("busy");
    return fetch(root.dataset.previewUrl, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "X-Requested-With": "fetch" },
    }).then(function (response) {
      if (!response.ok) throw new Error("preview " + response.status);
      return response.json();
    }).then(function (answer) {
      if (mine !== seq) return;
      review.innerHTML = answer.html;
      status.innerHTML = answer.summary;
      if (answer.editor !== undefined) {
        box.innerHTML = answer.editor;
        form.elements.deals.value = answer.deals;
        keep();
        if (name === "pick") {
          selected = null;
          var title = document.getElementById("move-editor-title");
          if (title) { title.tabIndex = -1; title.focus(); }
        } else if (focused && form.elements[focused] && form.elements[focused].focus) {
          form.elements[focused].focus();
        }
        if (selected !== null) showGrid(selected);
      }
    }).catch(function () {
      if (mine === seq) status.textContent = S.offline;
    }).finally(function () { review.classList.remove("busy"); });
  }

  // buttons of the form (a deal's number in the grid, add/take out a move, judge again): the
  // preview answers without leaving the page; Save submits the form as it is
  form.addEventListener("submit", function (event) {
    var by = event.submitter;
    if (!by || (by.name !== "pick" && !(by.name === "action" && by.value !== "save"))) return;
    event.preventDefault();
    post(by.name, by.value);
  });
  box.addEventListener("change", function (event) {
    if (event.target.name && event.target.name !== "reason") post("action", "preview");
  });

  // ---------------------------------------------------------------- the tile grid
  function field(j, name) { return form.elements["e" + j + "-" + name]; }

  // The table as the moves before entry j left it (a move the board cannot read is skipped).
  function tableBefore(j) {
    var table = new window.Fives.Table(data.table);
    for (var k = 0; k < j; k++) {
      if (!field(k, "kind") || field(k, "kind").value !== "move") continue;
      var tile = field(k, "tile").value.trim(), end = field(k, "end").value || null;
      var several = tile.split(/\s+/);
      if (several.length > 1) {        // «Телефон»: several doubles, an end typed for each
        var ends = (end || "").split(/\s+/);
        if (ends.length === several.length) table.playDoubles(several, ends);
        continue;
      }
      if (!/^\d:\d$/.test(tile)) continue;
      if (table.moves > 0 && !end) {
        var fits = table.legalEnds(tile);
        if (fits.length !== 1) continue;
        end = fits[0];
      }
      table.play(tile, end);
    }
    return table;
  }

  function showGrid(j) {
    var grid = document.getElementById("move-tiles");
    var tile = field(j, "tile");
    if (!grid || !tile || field(j, "kind").value === "pass") { selected = null; return; }
    selected = j;
    grid.hidden = false;
    document.getElementById("move-tiles-label").textContent =
      S.tap_tile.replace("%(n)s", String(j + 1));
    box.querySelectorAll("tr.move-row").forEach(function (row) {
      row.classList.toggle("selected", +row.dataset.j === j);
    });
    box.querySelectorAll("#tile-grid .tile").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.tile === tile.value.trim() ? "true" : "false");
    });
  }

  function offerEnds(j, tile) {
    var choice = document.getElementById("move-end-choice");
    choice.textContent = "";
    if (j === 0 || field(j, "kind").value !== "move") { post("action", "preview"); return; }
    var ends = tableBefore(j).legalEnds(tile);
    if (ends.length <= 1) {
      field(j, "end").value = ends.length ? ends[0] : "";
      post("action", "preview");
      return;
    }
    var label = document.createElement("span");
    label.textContent = S.choose_end + " ";
    choice.appendChild(label);
    ends.forEach(function (end) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "end-pick"; b.dataset.end = end;
      b.textContent = S.end_names[end];
      b.addEventListener("click", function () {
        field(j, "end").value = end;
        choice.textContent = "";
        post("action", "preview");
      });
      choice.appendChild(b);
    });
  }

  box.addEventListener("focusin", function (event) {
    var row = event.target.closest("tr.move-row");
    if (row && event.target.classList.contains("tile-field")) showGrid(+row.dataset.j);
  });
  box.addEventListener("click", function (event) {
    var b = event.target.closest("#tile-grid .tile");
    if (!b || selected === null) return;
    var tile = field(selected, "tile");
    if (field(selected, "kind").value === "draw" && tile.value.trim()) {
      tile.value = tile.value.trim() + " " + b.dataset.tile;   // a draw may name several tiles
    } else {
      tile.value = b.dataset.tile;
    }
    showGrid(selected);
    offerEnds(selected, b.dataset.tile);
  });

  form.elements.reason.addEventListener("input", keep);
  root.classList.add("js");
  // a kept correction: the protocol judged as it was left (the editor closed)
  if (restore() && !form.elements["edit-deal"]) post("action", "preview");
})();
