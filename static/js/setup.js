// The setup page: choosing a preset fills its knobs in (the values come from the page's
// «preset-data»), and the tie-breaks' arrows move an item up or down in place. Without this
// script the same buttons send the form to be shown again (nothing is saved).
(function () {
  "use strict";
  const form = document.getElementById("setup-form");
  const dataNode = document.getElementById("preset-data");
  if (!form || !dataNode) return;
  const presets = JSON.parse(dataNode.textContent);
  form.classList.add("scripted");

  function setValue(input, value) {
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = value === null || value === undefined ? "" : String(value);
  }

  function orderTieBreaks(names) {
    const list = document.getElementById("tie-list");
    const items = Array.from(list.children);
    const byName = new Map(items.map((li) => [li.dataset.name, li]));
    names.forEach((name) => { if (byName.has(name)) list.appendChild(byName.get(name)); });
    items.forEach((li) => { if (!names.includes(li.dataset.name)) list.appendChild(li); });
    items.forEach((li) => {
      li.querySelector('input[type="checkbox"]').checked = names.includes(li.dataset.name);
    });
  }

  const preset = form.elements.namedItem("rules_preset");
  preset.addEventListener("change", () => {
    const chosen = presets[preset.value];
    if (!chosen) return;
    form.querySelectorAll(".knobs").forEach((box) => {
      box.hidden = box.dataset.engine !== chosen.engine;
    });
    // a club game takes a few of its engine's knobs (RULES.md section 25): the others hide
    form.querySelectorAll('.knobs[data-engine="clubgame"] .setup-field').forEach((p) => {
      const input = p.querySelector("[name]");
      p.hidden = !input || !(input.name in chosen.values);
    });
    Object.entries(chosen.values).forEach(([name, value]) => {
      const input = form.elements.namedItem(name);
      if (input && input.nodeName) setValue(input, value);
    });
    orderTieBreaks(chosen.tie_breaks);
  });

  form.addEventListener("click", (event) => {
    const button = event.target.closest(".tie-up, .tie-down");
    if (!button) return;
    event.preventDefault();
    const li = button.closest("li");
    if (button.classList.contains("tie-up") && li.previousElementSibling) {
      li.parentNode.insertBefore(li, li.previousElementSibling);
    } else if (button.classList.contains("tie-down") && li.nextElementSibling) {
      li.parentNode.insertBefore(li.nextElementSibling, li);
    }
    button.focus();
  });
})();
