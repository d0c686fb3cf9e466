// The chief referee's correction of a confirmed protocol (scoring/views/correction.py): tap a
// deal's number in the protocol, change it with the tile picker (picker.js), and see the whole
// protocol judged again by the server beside the confirmed one, then save with a reason.
//
// The form's textarea "deals" (one JSON object per line) stays the single source of truth: the
// picker's changes are written back into it, it is what the preview judges and what Save posts
// (the page works without this script, editing the lines by hand). What is being corrected is
// kept in localStorage per match and version until it is saved, so that a reload or a lost
// connection loses nothing; a saved correction makes a new version, and its draft is dropped.
(function () {
  "use strict";

  var root = document.getElementById("correction");
  if (!root) return;
  var data = JSON.parse(document.getElementById("correction-data").textContent);
  var form = document.getElementById("correct-form");
  var lines = form.elements.deals;
  var reason = form.elements.reason;
  var review = document.getElementById("review");
  var status = document.getElementById("correct-status");
  var note = document.getElementById("draft-note");
  var editor = document.getElementById("deal-editor");
  var edit = document.getElementById("edit-form");
  var draftPrefix = "correction:" + data.match + ":";
  var draftKey = draftPrefix + data.version;
  var previewTimer = null, previewSeq = 0;
  var selected = null;
  var records = parse(lines.value);
  var picker = null;

  function parse(text) {
    var out = [];
    try {
      text.split("\n").forEach(function (line) { if (line.trim()) out.push(JSON.parse(line)); });
    } catch (e) { return null; }     // typed by hand and not JSON: the server will say where
    return out;
  }

  function write() {
    if (records) lines.value = records.map(function (r) { return JSON.stringify(r); }).join("\n");
    keep();
    schedulePreview();
  }

  // ------------------------------------------------------------------ the draft
  function keep() {
    try {
      localStorage.setItem(draftKey, JSON.stringify({ deals: lines.value, reason: reason.value }));
    } catch (e) { /* private mode: the form still holds it */ }
  }
  function restore() {
    try {
      // drafts of older versions were saved, or overtaken by another correction
      Object.keys(localStorage).forEach(function (key) {
        if (key.indexOf(draftPrefix) === 0 && key !== draftKey) localStorage.removeItem(key);
      });
      var kept = JSON.parse(localStorage.getItem(draftKey) || "null");
      if (kept && (kept.deals !== lines.value || kept.reason !== reason.value)) {
        lines.value = kept.deals;
        reason.value = kept.reason;
        records = parse(lines.value);
        note.textContent = data.strings.kept;
        note.hidden = false;
        return true;
      }
    } catch (e) { /* no storage */ }
    return false;
  }

  // ------------------------------------------------------------------ the judged protocol
  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 300);
  }

  function preview() {
    var seq = ++previewSeq;
    var body = new FormData();
    body.append("csrfmiddlewaretoken", form.elements.csrfmiddlewaretoken.value);
    body.append("deals", lines.value);
    review.classList.add("busy");
    fetch(root.dataset.previewUrl, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "X-Requested-With": "fetch" },
    }).then(function (response) {
      if (!response.ok) throw new Error("preview " + response.status);
      return response.json();
    }).then(function (answer) {
      if (seq !== previewSeq) return;
      review.innerHTML = answer.html;
      status.innerHTML = answer.summary;
      mark();
    }).catch(function () {
      if (seq === previewSeq) status.textContent = data.strings.offline;
    }).finally(function () { review.classList.remove("busy"); });
  }

  function mark() {
    review.querySelectorAll("tr[data-index]").forEach(function (row) {
      row.classList.toggle("selected", selected !== null && +row.dataset.index === selected);
    });
  }

  // ------------------------------------------------------------------ the deal being changed
  function setChoice(name, wanted) {
    var field = edit.elements[name];
    if (!field) return;
    if (field.length !== undefined && !field.tagName) {
      for (var i = 0; i < field.length; i++) field[i].checked = field[i].value === wanted;
    } else {
      field.value = wanted;
    }
  }

  function tilesText(value) {
    if (Array.isArray(value)) {
      return value.map(function (t) { return Array.isArray(t) ? t.join(":") : t; }).join(" ");
    }
    return value === undefined || value === null ? "" : String(value);
  }

  function load(record) {
    edit.reset();
    setChoice("result", record.result || "");
    setChoice("by", record.by || "");
    setChoice("mode", record.pips && !record.hands ? "pips" : "tiles");
    data.seats.forEach(function (s) {
      edit.elements["hand_" + s].value = tilesText(record.hands && record.hands[s]);
      var pips = record.pips && record.pips[s];
      edit.elements["pips_" + s].value = pips === undefined || pips === null ? "" : pips;
    });
    data.sides.forEach(function (side) {
      var field = edit.elements["declared_" + side];
      var amount = record.declared ? record.declared[side] : undefined;
      if (field) field.value = amount === undefined || amount === null ? "" : amount;
    });
    edit.elements.time_up.checked = record.time_up === true;
    setChoice("leader", record.leader || "");
    edit.elements.lead_tile.value = tilesText(record.lead_tile);
    edit.elements.last_tiles.value = tilesText(record.last_tiles);
    picker.reset();
  }

  // The record the picker shows, in the rules contract's shape (as DealForm.deal builds it on
  // the referee's sheet); keys the picker does not show (the boneyard) are kept as they were.
  function fromPicker(original) {
    var value = picker.value;
    var record = {};
    Object.keys(original || {}).forEach(function (key) {
      if (["boneyard"].indexOf(key) >= 0) record[key] = original[key];
    });
    var result = value("result");
    record.result = result;
    var by = value("by");
    if (by && result !== "redeal") record.by = by;
    if (value("leader")) record.leader = value("leader");
    var out = result === "domino" ? by : "";
    if (value("mode") === "pips") {
      var pips = {};
      data.seats.forEach(function (s) {
        var v = edit.elements["pips_" + s].value.trim();
        if (s !== out && v !== "" && /^\d+$/.test(v)) pips[s] = +v;
      });
      if (Object.keys(pips).length) record.pips = pips;
    } else {
      var hands = {};
      data.seats.forEach(function (s) {
        var v = edit.elements["hand_" + s].value.trim().split(/\s+/).join(" ");
        if (s !== out && v) hands[s] = v;
      });
      if (Object.keys(hands).length) record.hands = hands;
    }
    if (value("time_up")) record.time_up = true;
    var declared = {}, any = false;
    data.sides.forEach(function (side) {
      var field = edit.elements["declared_" + side];
      if (field && /^\d+$/.test(field.value.trim())) { declared[side] = +field.value.trim(); any = true; }
    });
    if (any) {
      data.sides.forEach(function (side) { if (!(side in declared)) declared[side] = 0; });
      record.declared = declared;
    }
    ["lead_tile", "last_tiles"].forEach(function (name) {
      var v = edit.elements[name].value.trim();
      if (v) record[name] = v;
    });
    return record;
  }

  function select(index) {
    if (!records || !editor) return;
    selected = index;
    document.getElementById("editor-title").textContent =
      data.strings.deal_title.replace("%(n)s", String(index + 1));
    load(records[index]);
    editor.hidden = false;
    root.classList.add("editing");
    mark();
    editor.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function close() {
    selected = null;
    if (editor) editor.hidden = true;
    root.classList.remove("editing");
    mark();
  }

  if (editor && window.DealPicker) {
    picker = window.DealPicker({
      root: editor, form: edit, grid: document.getElementById("tile-grid"),
      seats: data.seats, strings: data.strings,
      onChange: function () {
        if (selected === null || !records) return;
        records[selected] = fromPicker(records[selected]);
        write();
      },
    });
    document.getElementById("editor-done").addEventListener("click", close);
    document.getElementById("editor-delete").addEventListener("click", function () {
      if (selected === null) return;
      records.splice(selected, 1);
      close();
      write();
    });
    document.getElementById("editor-insert").addEventListener("click", function () {
      if (selected === null) return;
      records.splice(selected + 1, 0, { result: "domino" });
      write();
      select(selected + 1);
    });
  }

  review.addEventListener("click", function (event) {
    var pick = event.target.closest(".pick");
    if (pick) { select(+pick.dataset.index); return; }
    var accept = event.target.closest(".accept-rules");
    if (accept && records) {
      var index = +accept.dataset.index;
      records[index].declared = JSON.parse(accept.dataset.accept);
      write();
      if (selected === index) load(records[index]);
    }
  });

  lines.addEventListener("input", function () { records = parse(lines.value); close(); keep(); schedulePreview(); });
  reason.addEventListener("input", keep);
  root.classList.add("js");
  if (restore()) schedulePreview();
})();
