// The fives table and a deal's end as rules.fives reckons them (RULES.md sections 18–20), for the
// referee's board (fives.js): the open ends, the spinner and the count (FivesTable), the points
// of a move, and what the end of the deal adds to the winner (the bonus, rounded and divided as
// bonus_of does, and the eggs it takes). The server judges every deal anyway; this only lets the
// board show, as the referee taps, the totals the protocol will have.
(function () {
  "use strict";

  var ENDS = ["L", "R", "U", "D"];
  function halves(tile) { return tile.split(":").map(Number); }

  // rules: { spinner: the first double is a spinner, all_arms: its arms count from the start }
  // Spinner states as FivesTable's: 0 none laid yet, 1 the lead, 2 laid on an end, 3 settled (or
  // no spinner), 4 «Телефон»'s first doubles laid together: the first of them covered is the «дом»
  function Table(rules) {
    this.allArms = !!rules.all_arms;
    this.show = [-1, -1, -1, -1]; this.weight = [0, 0, 0, 0]; this.moves = 0; this.lead = null;
    this.spin = rules.spinner ? 0 : 3; this.spinEnd = -1; this.spinNum = 0; this.covered = 0;
    this.pending = 0;
  }
  Table.prototype.count = function () {
    if (this.moves === 1) { var h = halves(this.lead); return h[0] + h[1]; }
    return this.weight[0] + this.weight[1] + this.weight[2] + this.weight[3];
  };
  Table.prototype.legalEnds = function (tile) {
    var h = halves(tile), out = [];
    for (var e = 0; e < 4; e++) {
      if (this.show[e] >= 0 && (h[0] === this.show[e] || h[1] === this.show[e])) out.push(ENDS[e]);
    }
    return out;
  };
  Table.prototype.openArms = function () {
    this.show[2] = this.show[3] = this.spinNum;
    this.weight[2] = this.weight[3] = this.allArms ? this.spinNum : 0;
    this.spin = 3; this.spun = true;
  };
  Table.prototype.play = function (tile, end) {   // returns the count after the move
    var h = halves(tile), a = h[0], b = h[1];
    if (this.moves === 0) {
      var hi = Math.max(a, b), lo = Math.min(a, b);
      this.lead = tile; this.moves = 1; this.show[0] = hi; this.show[1] = lo;
      if (a === b) {
        this.weight[0] = this.weight[1] = a + b;
        if (this.spin === 0) { this.spin = 1; this.spinNum = a; }
      } else { this.weight[0] = hi; this.weight[1] = lo; }
      return a + b;
    }
    var e = ENDS.indexOf(end);
    var other = a === this.show[e] ? b : a;
    this.show[e] = other;
    this.weight[e] = a === b ? other + other : other;
    this.moves += 1;
    if (this.spin === 2) { if (e === this.spinEnd) this.openArms(); }
    else if (this.spin === 1) {
      if (e < 2) { this.covered |= 1 << e; if (this.covered === 3) this.openArms(); }
    } else if (this.spin === 4) {
      // the first of the doubles laid together to be covered is the «дом»: its arms open now
      if (this.pending >> e & 1) { this.spinNum = a + b - other; this.openArms(); }
    } else if (this.spin === 0 && a === b) { this.spin = 2; this.spinEnd = e; this.spinNum = a; }
    return this.count();
  };
  // Several doubles in one move («Телефон», RULES.md section 32), each on an end open before the
  // move: a double leaves its end showing its number and counting both halves. Returns the count.
  Table.prototype.playDoubles = function (tiles, ends) {
    var self = this, idx = ends.map(function (end) { return ENDS.indexOf(end); });
    tiles.forEach(function (tile, i) { var n = halves(tile)[0]; self.weight[idx[i]] = n + n; });
    this.moves += 1;
    if (this.spin === 0) {
      this.spin = 4;
      idx.forEach(function (e) { self.pending |= 1 << e; });
    }
    return this.count();
  };
  // The spinner («дом») once its arms are open: its number (null before, or with none).
  Table.prototype.dom = function () { return this.spun ? this.spinNum : null; };
  // The doubles laid together waiting for the first to be covered (their ends), [] otherwise.
  Table.prototype.pendingEnds = function () {
    if (this.spin !== 4) return [];
    var out = [];
    for (var e = 0; e < 4; e++) if (this.pending >> e & 1) out.push(ENDS[e]);
    return out;
  };
  Table.prototype.openEnds = function () {
    var out = [];
    for (var e = 0; e < 4; e++) if (this.show[e] >= 0) out.push([ENDS[e], this.show[e]]);
    return out;
  };

  function points(count) { return count % 5 === 0 && count ? count : 0; }

  // bonus_of: the base rounded by bonus_round to a multiple of 5, then divided by bonus_divisor
  function bonusOf(rules, base) {
    if (rules.bonus_round === "nearest") base = Math.floor((base + 2) / 5) * 5;
    else if (rules.bonus_round === "down") base = Math.floor(base / 5) * 5;
    else if (rules.bonus_round === "up") base = Math.floor((base + 4) / 5) * 5;
    return Math.floor(base / rules.bonus_divisor);
  }

  // What the end of a deal adds (score_deal): rules as fives_data gives them, result "domino" or
  // "fish", by the seat that went out, hands { seat: [tiles] }, eggs pending before the deal.
  // Returns { winner: side or null, bonus: the winner's bonus, eggs: what the winner takes }.
  function dealEnd(rules, result, by, hands, eggs) {
    var values = {}, sum = 0, winner = null, bonus = 0;
    rules.sides.forEach(function (s) { values[s] = 0; });
    rules.seats.forEach(function (seat) {
      (hands[seat] || []).forEach(function (t) {
        var h = halves(t); values[rules.side_of[seat]] += h[0] + h[1]; sum += h[0] + h[1];
      });
    });
    var endsWithBonus = rules.deal_end === "bonus";
    var low = Math.min.apply(null, rules.sides.map(function (s) { return values[s]; }));
    if (result === "domino" && by) {
      winner = rules.side_of[by];
      if (endsWithBonus) {
        bonus = rules.domino_bonus !== null ? rules.domino_bonus
          : bonusOf(rules, sum - values[winner]);
      }
    } else if (result === "fish") {
      var lowest = rules.sides.filter(function (s) { return values[s] === low; });
      if (lowest.length === 1) {
        winner = lowest[0];
        var base = sum - values[winner];
        if (rules.fish_scoring === "difference") base -= values[winner];
        if (endsWithBonus) bonus = bonusOf(rules, base);
      }
    }
    // «Телефон»'s write-off (telefon.write_off_score): each losing side writes its own value off,
    // rounded; in a domino every side but the finisher's, in a fish every side above the lowest
    var writeOff = null;
    if (!endsWithBonus) {
      writeOff = {};
      rules.sides.forEach(function (s) {
        var loses = result === "domino" ? by && s !== rules.side_of[by]
          : result === "fish" && values[s] > low;
        writeOff[s] = loses ? bonusOf({ bonus_round: rules.bonus_round, bonus_divisor: 1 },
                                      values[s]) : 0;
      });
    }
    return { winner: winner, bonus: bonus, eggs: winner && endsWithBonus ? eggs || 0 : 0,
             writeOff: writeOff };
  }

  window.Fives = { ENDS: ENDS, halves: halves, Table: Table, points: points, dealEnd: dealEnd };
})();
