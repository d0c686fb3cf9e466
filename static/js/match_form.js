// The new match's form: the numbers of players a game allows (from «game-players»: [fewest,
// most, usual]) and only the seats that play. Without this script every count and seat is
// shown, and the server names a count or a seat the game does not take.
(function () {
  "use strict";
  const form = document.getElementById("match-form");
  const dataNode = document.getElementById("game-players");
  if (!form || !dataNode) return;
  const games = JSON.parse(dataNode.textContent);
  const SEATS = ["N", "E", "S", "W"];
  const preset = form.elements.namedItem("rules_preset");
  const radios = Array.from(form.querySelectorAll('input[name="players"]'));

  function count() {
    const checked = radios.find((r) => r.checked && !r.disabled);
    return checked ? Number(checked.value) : games[preset.value][2];
  }

  function showSeats() {
    const n = count();
    form.querySelectorAll(".seat-field").forEach((p) => {
      const inPlay = SEATS.indexOf(p.dataset.seat) < n;
      p.hidden = !inPlay;
      const select = p.querySelector("select");
      select.disabled = !inPlay;  // a seat not in play is not sent
      if (!inPlay) select.value = "";
    });
  }

  function showCounts() {
    const [low, high, usual] = games[preset.value] || [4, 4, 4];
    radios.forEach((r) => {
      const n = Number(r.value);
      const allowed = n >= low && n <= high;
      r.disabled = !allowed;
      r.closest("label").hidden = !allowed;
      if (!allowed && r.checked) r.checked = false;
    });
    if (!radios.some((r) => r.checked)) {
      const usualRadio = radios.find((r) => Number(r.value) === usual);
      if (usualRadio) usualRadio.checked = true;
    }
    document.getElementById("players-choice").hidden = low === high;
    showSeats();
  }

  // with the script a count is always chosen: the words for «none chosen» say nothing
  const help = document.querySelector("#players-choice .meta");
  if (help) help.hidden = true;

  preset.addEventListener("change", () => {
    radios.forEach((r) => { r.checked = false; });
    showCounts();
  });
  radios.forEach((r) => r.addEventListener("change", showSeats));
  showCounts();
})();
