/**
 * The labels of the judge's verdicts, kept in the page as the person clicks: a second click on the
 * chosen button clears the label, the other button changes it, the note goes with it. The download
 * is a Blob URL the page makes itself, so the page still loads nothing; the labels are
 * `judge-labels.json`'s (`JudgeLabel`), `human` the judge's verdict when it is right, the other when not.
 */
export const LABELLING_SCRIPT = `
(function () {
  var bar = document.getElementById("labels");
  if (!bar) return;
  var boxes = Array.prototype.slice.call(document.querySelectorAll(".labelling"));
  var picks = new Map();
  function labelOf(box, pick) {
    var draft = JSON.parse(box.dataset.draft);
    var exchanges = JSON.parse(box.closest("details.conversation").dataset.exchanges);
    var verdict = draft.judge.outcome === "passed" ? "pass" : "fail";
    var label = { file: draft.file, turn: draft.turn, expected: draft.expected, answer: draft.answer,
      answerSha256: draft.answerSha256, human: pick.right ? verdict : verdict === "pass" ? "fail" : "pass" };
    var note = box.querySelector("[name=note]").value.trim();
    if (note) label.note = note;
    label.input = draft.input;
    label.conversation = exchanges.slice(0, Number(box.dataset.before));
    if (draft.caseLabel !== undefined) label.caseLabel = draft.caseLabel;
    label.repeat = draft.repeat;
    label.judge = draft.judge;
    label.labelledAt = pick.at;
    return label;
  }
  function show(box) {
    var pick = picks.get(box);
    box.querySelectorAll("button").forEach(function (button) {
      var chosen = pick !== undefined && pick.right === (button.dataset.human === "right");
      button.classList.toggle("chosen", chosen);
      button.setAttribute("aria-pressed", String(chosen));
    });
    document.getElementById("labelled").textContent = picks.size + " labelled";
    document.getElementById("download-labels").disabled = picks.size === 0;
  }
  document.getElementById("conversations").addEventListener("click", function (event) {
    var button = event.target.closest(".labelling button");
    if (!button) return;
    var box = button.closest(".labelling"), right = button.dataset.human === "right", pick = picks.get(box);
    if (pick && pick.right === right) picks.delete(box);
    else picks.set(box, { right: right, at: new Date().toISOString() });
    show(box);
  });
  document.getElementById("download-labels").addEventListener("click", function () {
    var labels = boxes.filter(function (box) { return picks.has(box); })
      .map(function (box) { return labelOf(box, picks.get(box)); });
    var file = new Blob([JSON.stringify({ labels: labels }, null, 2) + "\\n"], { type: "application/json" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = "judge-labels.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
  });
  boxes.forEach(function (box) { box.hidden = false; });
  bar.hidden = false;
})();
`;
