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
  var seats = root.dataset.seats.split(",");            // N,E,S,W
  var pendingKey = "scoresheet:pending:" + root.dataset.match;
  var grid = document.getElementById("tile-grid");
  var verdictBox = document.getElementById("verdict");
  var banner = document.getElementById("network-banner");
  var saveButton = document.getElementById("save-deal");
  var bar = document.getElementById("deal-bar");
  var previewTimer = null;
  var previewSeq = 0;
  var retryTimer = null;
  var retryDelay = 3000;
  var sending = false;
  // A request whose answer never comes is given up after this long, then sent again.
  var ANSWER_TIMEOUT = 15000;

  var picker = window.DealPicker({
    root: root, form: form, grid: grid, seats: seats, strings: strings,
    onChange: schedulePreview,
  });
  var value = picker.value;
  var render = picker.render;
  function changed() { picker.changed(); }
  function handField(seat) { return form.elements["hand_" + seat]; }
  function pipsField(seat) { return form.elements["pips_" + seat]; }

  // Fewer taps and swipes: a seat tapped under «Who went out» before the result means a domino,
  // and once the result and who went out are known the hands and the tiles come into sight.
  function bringIntoSight(element) {
    // the cards at the top and the tile picker's last row above the bar at the bottom
    var top = element.getBoundingClientRect().top;
    var low = grid.getBoundingClientRect().bottom;
    var limit = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    if (top < 0 || (low > limit && top > 8)) {
      window.scrollBy({ top: top - 4, behavior: "auto" });  // at once: no tap lands mid-scroll
    }
  }
  form.addEventListener("change", function (event) {
    var name = event.target.name;
    if (name === "by" && !value("result") && event.target.value) {
      var domino = form.querySelector('input[name="result"][value="domino"]');
      domino.checked = true;
      changed();
    }
    var result = value("result");
    var ready = (name === "by" && result === "domino" && value("by")) ||
      (name === "result" && (result === "fish" || result === "redeal"));
    if (ready) bringIntoSight(root.querySelector(".hands"));
  });

  // «Accept the rules' amount» under an announced amount the rules do not give.
  verdictBox.addEventListener("click", function (event) {
    var button = event.target.closest(".accept-rules");
    if (!button) return;
    var amounts = JSON.parse(button.dataset.accept);
    Object.keys(amounts).forEach(function (side) {
      var field = form.elements["declared_" + side];
      if (field) field.value = amounts[side];
    });
    changed();
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

  // Something to judge: a redeal, or a result with at least one hand (tiles or pips) written.
  // Until then the verdict box stays empty (a red «not recorded» on tapping who went out
  // only says the referee has not finished).
  function judgeable() {
    var result = value("result");
    if (!result) return false;
    if (result === "redeal") return true;
    return seats.some(function (s) { return handField(s).value.trim() || pipsField(s).value.trim(); });
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    if (!judgeable()) { previewSeq++; verdictBox.innerHTML = ""; return; }
    previewTimer = setTimeout(preview, 350);
  }

  function preview() {
    var seq = ++previewSeq;
    verdictBox.classList.add("busy");
    var body = formBody();
    // amending: judged as the last deal's replacement, not as one more deal
    if (root.classList.contains("amending")) body.set("amend", "1");
    post(root.dataset.previewUrl, body)
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
    picker.reset();
    // the next deal starts at its first question, not where the last one ended
    root.scrollIntoView({ block: "start" });
  }

  function applyServerState(data) {
    if (data.protocol_html !== undefined) {
      document.getElementById("protocol").innerHTML = data.protocol_html;
    }
    if (data.version !== undefined) {
      root.dataset.version = data.version;
    }
    // the last deal's buttons (amend, delete) and the version they send, as the server has
    // them now: they appear after the first deal, and act on the deal just saved
    var actions = document.getElementById("last-actions");
    if (actions && data.actions_html !== undefined) actions.innerHTML = data.actions_html;
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

  // Loading the last deal back into the form to amend it (delegated: the button is redrawn
  // after each save).
  document.addEventListener("click", function (event) {
    var amendButton = event.target.closest && event.target.closest("#amend-last");
    if (!amendButton) return;
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
    Object.keys((last.declared) || {}).forEach(function (side) {
      var field = form.elements["declared_" + side];
      if (field) field.value = last.declared[side];
    });
    bar.hidden = false;
    var submitLink = document.getElementById("submit-link");
    if (submitLink) submitLink.parentNode.hidden = true;
    form.elements.client_id.value = newClientId();
    form.action = amendButton.dataset.url;
    root.classList.add("amending");
    changed();
    form.scrollIntoView({ behavior: "smooth" });
  });

  var kept = loadPending();
  if (kept) restoreForm(kept);
  else if (!form.elements.client_id.value) form.elements.client_id.value = newClientId();
  render();
  if (kept) retryPending();
  if (judgeable()) schedulePreview();
})();
