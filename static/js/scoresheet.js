// The referee's score sheet: the tile picker, the verdict preview and saving that survives a
// flaky network. Progressive enhancement of #deal-form: without this script the form still
// posts (hands typed as "6:4 2:0", or pips), and the server judges it the same way.
//
// The form is the single source of truth: the picker only rewrites the hand_<seat> text fields,
// so what is previewed, saved or retried is always FormData(form). Every deal carries a key
// (client_id), given once per deal: the page comes with one, and a new one follows each saved
// deal. A deal being sent is kept in localStorage ("pending", per match) with its key until the
// server has answered, across reloads and offline periods; sending it again (automatically, by
// tapping Save, after a reload) sends the same key, and the server stores the deal once.
(function () {
  "use strict";

  var form = document.getElementById("deal-form");
  if (!form) return;

  var root = document.getElementById("deal-entry");
  var strings = JSON.parse(document.getElementById("sheet-strings").textContent);
  var plural = new Intl.PluralRules(document.documentElement.lang || "ru");
  function pipsText(n) { return n + " " + strings.pips_forms[plural.select(Number(n))]; }
  var seats = root.dataset.seats.split(",");            // N,E,S,W
  var pendingKey = "scoresheet:pending:" + root.dataset.match;
  var grid = document.getElementById("tile-grid");
  var verdictBox = document.getElementById("verdict");
  var banner = document.getElementById("network-banner");
  var saveButton = document.getElementById("save-deal");
  var active = seats[0];
  var previewTimer = null;
  var previewSeq = 0;
  var retryTimer = null;
  var retryDelay = 3000;
  var sending = false;
  // A request whose answer never comes is given up after this long, then sent again.
  var ANSWER_TIMEOUT = 15000;

  root.classList.add("js");

  // ---------------------------------------------------------------- tiles and hands
  function normalise(token) {
    var m = /^\[?([0-6])\s*[:\-|]\s*([0-6])\]?$/.exec(token);
    if (!m) return null;
    var a = +m[1], b = +m[2];
    return a >= b ? a + ":" + b : b + ":" + a;
  }

  function handField(seat) { return form.elements["hand_" + seat]; }
  function pipsField(seat) { return form.elements["pips_" + seat]; }

  // Tokens of a hand as typed; unreadable ones are kept so the server can name them.
  function tokens(seat) {
    var value = handField(seat).value.trim();
    return value ? value.split(/[\s,]+/) : [];
  }

  function handTiles(seat) {
    var out = [];
    tokens(seat).forEach(function (t) { var n = normalise(t); if (n) out.push(n); });
    return out;
  }

  function setHand(seat, tiles) { handField(seat).value = tiles.join(" "); }

  function pipsOf(tiles) {
    return tiles.reduce(function (sum, t) { return sum + (+t[0]) + (+t[2]); }, 0);
  }

  function owners() {
    var map = {};
    seats.forEach(function (s) {
      if (handField(s).disabled) return;
      handTiles(s).forEach(function (t) { map[t] = s; });
    });
    return map;
  }

  function value(name) {
    var field = form.elements[name];
    if (!field) return "";
    if (field.length !== undefined && !field.tagName) {
      for (var i = 0; i < field.length; i++) if (field[i].checked) return field[i].value;
      return "";
    }
    return field.value;
  }

  function finisher() { return value("result") === "domino" ? value("by") : ""; }
  function tileMode() { return value("mode") !== "pips"; }

  // ---------------------------------------------------------------- rendering the picker
  function render() {
    var out = finisher();
    var pipsMode = !tileMode();
    root.classList.toggle("mode-pips", pipsMode);
    root.dataset.result = value("result");
    if (active === out) {
      active = seats.filter(function (s) { return s !== out; })[0];
    }
    seats.forEach(function (s) {
      var isOut = s === out;
      handField(s).disabled = isOut;
      pipsField(s).disabled = isOut;
      if (isOut) { handField(s).value = ""; pipsField(s).value = ""; }
      var tab = root.querySelector('.seat-tab[data-seat="' + s + '"]');
      var tiles = handTiles(s);
      tab.classList.toggle("active", s === active && !pipsMode);
      tab.classList.toggle("out", isOut);
      tab.disabled = isOut;
      tab.setAttribute("aria-pressed", String(s === active));
      var summary = tab.querySelector(".seat-summary");
      if (isOut) summary.textContent = strings.went_out;
      else if (pipsMode) summary.textContent = pipsField(s).value === "" ? "—" : pipsText(pipsField(s).value);
      else summary.textContent = tiles.length ? tiles.length + " · " + pipsText(pipsOf(tiles)) : strings.empty_hand;
      var chips = root.querySelector('.hand-chips[data-seat="' + s + '"]');
      chips.textContent = isOut || pipsMode ? "" : tiles.join("  ");
    });
    var map = owners();
    grid.querySelectorAll(".tile").forEach(function (button) {
      var owner = map[button.dataset.tile];
      var mine = owner === active;
      button.classList.toggle("mine", mine);
      button.classList.toggle("used", !!owner && !mine);
      button.disabled = (!!owner && !mine) || pipsMode || !active;
      button.setAttribute("aria-pressed", String(mine));
      button.querySelector(".owner").textContent = owner && !mine ? owner : "";
    });
    grid.hidden = pipsMode;
    var byLegend = root.querySelector(".by-legend");
    if (byLegend) byLegend.textContent = value("result") === "fish" ? strings.who_blocked : strings.who_went_out;
  }

  function changed() {
    render();
    schedulePreview();
  }

  root.querySelectorAll(".seat-tab").forEach(function (tab) {
    tab.addEventListener("click", function () { active = tab.dataset.seat; render(); });
  });

  grid.addEventListener("click", function (event) {
    var button = event.target.closest(".tile");
    if (!button || button.disabled || !active) return;
    var tile = button.dataset.tile;
    var tiles = handTiles(active);
    var at = tiles.indexOf(tile);
    if (at >= 0) tiles.splice(at, 1); else tiles.push(tile);
    // Unreadable tokens typed by hand are dropped once the picker rewrites the hand.
    setHand(active, tiles);
    changed();
  });

  form.addEventListener("change", changed);
  form.addEventListener("input", function (event) {
    if (event.target.name && /^(hand|pips)_/.test(event.target.name)) changed();
  });

  // ---------------------------------------------------------------- talking to the server
  function post(url, body, timeout) {
    var options = {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-Requested-With": "fetch" },
    };
    if (timeout && window.AbortController) {
      var controller = new AbortController();
      options.signal = controller.signal;
      var timer = setTimeout(function () { controller.abort(); }, timeout);
      return fetch(url, options).finally(function () { clearTimeout(timer); });
    }
    return fetch(url, options);
  }

  function formBody() { return new FormData(form); }

  function schedulePreview() {
    clearTimeout(previewTimer);
    if (!value("result")) { verdictBox.innerHTML = ""; return; }
    previewTimer = setTimeout(preview, 350);
  }

  function preview() {
    var seq = ++previewSeq;
    verdictBox.classList.add("busy");
    post(root.dataset.previewUrl, formBody())
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (seq !== previewSeq) return;       // a newer preview is on its way
        verdictBox.innerHTML = data.html || "";
      })
      .catch(function () {
        if (seq === previewSeq) verdictBox.innerHTML = '<p class="meta">' + strings.preview_offline + "</p>";
      })
      .finally(function () { verdictBox.classList.remove("busy"); });
  }

  function newClientId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function loadPending() {
    try { return JSON.parse(localStorage.getItem(pendingKey) || "null"); } catch (e) { return null; }
  }
  function storePending(p) { try { localStorage.setItem(pendingKey, JSON.stringify(p)); } catch (e) { /* private mode */ } }
  function clearPending() { try { localStorage.removeItem(pendingKey); } catch (e) { /* private mode */ } }

  function showBanner(text, kind) {
    banner.textContent = text || "";
    banner.hidden = !text;
    banner.className = "network-banner" + (kind ? " " + kind : "");
  }

  // The fields of a kept deal back into the form, so that the referee sees what is being sent.
  function restoreForm(pending) {
    var fields = pending.fields || {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.name === "csrfmiddlewaretoken" || field.tagName === "BUTTON") return;
      var values = fields[field.name] || [];
      if (field.type === "radio" || field.type === "checkbox") field.checked = values.indexOf(field.value) >= 0;
      else field.value = values.length ? values[0] : "";
    });
    if (pending.url && pending.url !== new URL(root.dataset.saveUrl, window.location.href).href) {
      form.action = pending.url;
      root.classList.add("amending");
    }
  }

  function resetEntry(data) {
    form.reset();
    seats.forEach(function (s) { handField(s).value = ""; pipsField(s).value = ""; });
    form.elements.client_id.value = newClientId();      // the next deal's own key
    if (data.version !== undefined) form.elements.expected_version.value = data.version;
    form.elements.leader.value = data.next_leader || "";
    var leader = document.getElementById("expected-leader");
    if (leader) leader.innerHTML = data.leader_html || "";
    verdictBox.innerHTML = "";
    form.action = root.dataset.saveUrl;
    root.classList.remove("amending");
    active = seats[0];
    render();
  }

  function applyServerState(data) {
    if (data.protocol_html !== undefined) {
      document.getElementById("protocol").innerHTML = data.protocol_html;
    }
    if (data.version !== undefined) {
      root.dataset.version = data.version;
    }
  }

  function send(pending) {
    if (sending) return;
    sending = true;
    saveButton.disabled = true;
    var body = new FormData();
    Object.keys(pending.fields).forEach(function (k) {
      pending.fields[k].forEach(function (v) { body.append(k, v); });
    });
    body.set("csrfmiddlewaretoken", form.elements.csrfmiddlewaretoken.value);
    post(pending.url, body, ANSWER_TIMEOUT)
      .then(function (response) {
        if (response.status >= 500) throw new Error("server " + response.status);
        return response.json().then(function (data) { return { status: response.status, data: data }; });
      })
      .then(function (r) {
        clearPending();
        retryDelay = 3000;
        applyServerState(r.data);
        if (r.status === 200 || r.status === 201) {
          showBanner(r.data.message || "", "ok");
          if (r.data.reload) { window.location.reload(); return; }
          resetEntry(r.data);
        } else {
          // Refused by the rules (400), by permissions (403) or made against an old version (409):
          // resending cannot help, the referee has to look. Nothing was stored under the key, so
          // it stays for this deal; unless it was already spent on another deal (409
          // idempotency_conflict): then saving again records this one as a new deal.
          var spent = (r.data.errors || []).some(function (e) { return e.code === "idempotency_conflict"; });
          if (spent) form.elements.client_id.value = newClientId();
          if (r.data.version !== undefined) form.elements.expected_version.value = r.data.version;
          verdictBox.innerHTML = r.data.html || "";
          showBanner(r.data.message || "", "error");
        }
      })
      .catch(function () {
        // No answer: the deal may or may not be stored; the kept copy goes again with its key.
        showBanner(navigator.onLine === false ? strings.kept_offline : strings.no_answer, "warn");
        clearTimeout(retryTimer);
        retryTimer = setTimeout(retryPending, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 60000);
      })
      .finally(function () { sending = false; saveButton.disabled = false; });
  }

  function retryPending() {
    var pending = loadPending();
    if (pending) { showBanner(strings.resending, "sending"); send(pending); }
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (loadPending()) { retryPending(); return; }     // one deal at a time, in order
    var fields = {};
    formBody().forEach(function (v, k) { (fields[k] = fields[k] || []).push(v); });
    var pending = { url: form.action, fields: fields, client_id: form.elements.client_id.value };
    storePending(pending);
    showBanner("");                                    // the last deal's message is old news
    send(pending);
  });

  window.addEventListener("online", retryPending);

  // Loading the last deal back into the form to amend it.
  var amendButton = document.getElementById("amend-last");
  if (amendButton) {
    amendButton.addEventListener("click", function () {
      var last = JSON.parse(document.getElementById("last-deal").textContent);
      form.reset();
      ["result", "by", "mode"].forEach(function (name) {
        var wanted = name === "mode" ? (last.pips ? "pips" : "tiles") : (last[name] || "");
        var field = form.elements[name];
        for (var i = 0; i < field.length; i++) field[i].checked = field[i].value === wanted;
      });
      seats.forEach(function (s) {
        handField(s).value = (last.hands && last.hands[s]) || "";
        pipsField(s).value = last.pips && last.pips[s] !== undefined ? last.pips[s] : "";
      });
      form.elements.time_up.checked = !!last.time_up;
      form.elements.leader.value = last.leader || "";
      form.elements.client_id.value = newClientId();
      form.action = amendButton.dataset.url;
      root.classList.add("amending");
      changed();
      form.scrollIntoView({ behavior: "smooth" });
    });
  }

  var kept = loadPending();
  if (kept) restoreForm(kept);
  else if (!form.elements.client_id.value) form.elements.client_id.value = newClientId();
  render();
  if (kept) retryPending();
  if (value("result")) schedulePreview();
})();
