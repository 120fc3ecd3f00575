/**
 * The page's only script: the filter and the expand/collapse buttons. Without it the page still
 * shows everything, failures open, so it adds nothing a reader needs to see a failure.
 */
export const REPORT_SCRIPT = `
(function () {
  var bar = document.getElementById("filters");
  var items = Array.prototype.slice.call(document.querySelectorAll("details.conversation"));
  var texts = new Map();
  var field = function (name) { return bar.querySelector("[name=" + name + "]"); };
  function textOf(item) {
    if (!texts.has(item)) texts.set(item, item.textContent.toLowerCase());
    return texts.get(item);
  }
  function apply() {
    var flow = field("flow").value, tag = field("tag").value, outcome = field("outcome").value, text = field("text").value.trim().toLowerCase();
    var shown = 0;
    items.forEach(function (item) {
      var ok = (!flow || item.dataset.flow === flow) && (!tag || (" " + item.dataset.tags + " ").indexOf(" " + tag + " ") >= 0) &&
        (!outcome || item.dataset.outcome === outcome) && (!text || textOf(item).indexOf(text) >= 0);
      item.hidden = !ok;
      if (ok) shown++;
    });
    document.getElementById("shown").textContent = shown + " of " + items.length + " shown";
  }
  bar.addEventListener("input", apply);
  bar.addEventListener("click", function (event) {
    var open = event.target.dataset && event.target.dataset.open;
    if (open === undefined) return;
    items.forEach(function (item) { if (!item.hidden) item.open = open === "all"; });
  });
  bar.hidden = false;
  apply();
})();
`;
