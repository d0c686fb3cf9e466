// The tile picker of a deal form, shared by the referee's sheet (scoresheet.js) and the chief
// referee's correction (correction.js). It only rewrites the form's own fields — hand_<seat> as
// "6:4 2:0", pips_<seat> — so that what is previewed, saved or sent again is always the form.
//
//   var picker = DealPicker({root: section, form: form, grid: tileGrid, seats: ["N", …],
//                            strings: {went_out, empty_hand, pips_forms, who_went_out,
//                                      who_blocked}, onChange: function () {…}});
//   picker.render(); picker.reset(); picker.value("result");
//
// root holds the seat buttons (.seat-tab[data-seat]) and their chips (.hand-chips[data-seat]);
// it gets the classes js and mode-pips and data-result, which the style sheet reads.
(function () {
  "use strict";

  function DealPicker(options) {
    var root = options.root, form = options.form, grid = options.grid;
    var seats = options.seats, strings = options.strings;
    var plural = new Intl.PluralRules(document.documentElement.lang || "ru");
    var active = seats[0];

    function pipsText(n) { return n + " " + strings.pips_forms[plural.select(Number(n))]; }

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
      var text = handField(seat).value.trim();
      return text ? text.split(/[\s,]+/) : [];
    }

    function handTiles(seat) {
      var out = [];
      tokens(seat).forEach(function (t) { var n = normalise(t); if (n) out.push(n); });
      return out;
    }

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
      if (field.type === "checkbox") return field.checked ? field.value : "";
      return field.value;
    }

    function finisher() { return value("result") === "domino" ? value("by") : ""; }
    function tileMode() { return value("mode") !== "pips"; }

    function render() {
      var out = finisher();
      var pipsMode = !tileMode();
      root.classList.toggle("mode-pips", pipsMode);
      root.dataset.result = value("result");
      if (active === out) active = seats.filter(function (s) { return s !== out; })[0];
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
      if (options.onChange) options.onChange();
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
      handField(active).value = tiles.join(" ");
      changed();
    });

    form.addEventListener("change", changed);
    form.addEventListener("input", function (event) {
      if (event.target.name && /^(hand|pips|declared)_/.test(event.target.name)) changed();
    });

    root.classList.add("js");
    return {
      render: render,
      changed: changed,
      value: value,
      // Back to the first seat, for a new deal.
      reset: function () { active = seats[0]; render(); },
    };
  }

  window.DealPicker = DealPicker;
})();
