// Public results pages: the round and table selectors apply on change. The live standings and
// crosstable re-read their table in place (the reader's scroll position stays) when the server
// says the results changed, or every 20 s while it cannot say: static/js/live.js does that.
// Every page works without JavaScript (a <noscript> meta refresh reloads live pages).
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("choose-form");
  if (form) {
    form.querySelectorAll("select").forEach(function (select) {
      select.addEventListener("change", function () { form.submit(); });
    });
    var submit = form.querySelector(".choose-submit");
    if (submit) { submit.hidden = true; }
  }
});
