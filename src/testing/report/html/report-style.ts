/**
 * The page's whole stylesheet: system fonts only, so the file needs nothing from the network.
 * Conversations off screen are not laid out until scrolled to (content-visibility): that halves
 * the time a 2000-turn page takes to open, measured by npm run bench.
 */
export const REPORT_STYLE = `
:root{--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--skip:#7d6608;--skip-bg:#fff8c5;--ink:#1f2328;
--muted:#656d76;--line:#d0d7de;--bg:#f6f8fa;--user:#ddf4ff;--bot:#fff}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
color:var(--ink);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:16px 20px 40px}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
header{background:#fff;border:1px solid var(--line);border-top:6px solid var(--pass);border-radius:8px;padding:14px 18px;margin-bottom:14px}
header.red{border-top-color:var(--fail)}
h1{font-size:20px;margin:0 0 10px}h2{font-size:16px;margin:0 0 10px}h3{font-size:14px;margin:12px 0 6px}h4{font-size:13px;margin:0 0 6px}
.badge{font-size:13px;padding:2px 10px;border-radius:12px;vertical-align:middle;margin-left:6px}
header.green .badge{background:var(--pass-bg);color:var(--pass)}header.red .badge{background:var(--fail-bg);color:var(--fail)}
.tallies{display:flex;gap:12px;flex-wrap:wrap;margin-bottom:10px}
.tally{display:flex;gap:10px;align-items:baseline;border:1px solid var(--line);border-radius:6px;padding:6px 12px}
.tally .label{color:var(--muted)}.tally .count{font-size:18px;font-weight:600}
.pass,.passed>summary .mark,.passed>h4 .mark,.check.passed .mark{color:var(--pass)}
.fail,.failed>summary .mark,.failed>h4 .mark,.check.failed .mark{color:var(--fail)}
.skip,.skipped>summary .mark,.skipped>h4 .mark,.check.skipped .mark{color:var(--skip)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:3px 14px;margin:0}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
dd code{background:var(--bg);border-radius:4px;padding:0 4px;margin-right:4px}
.none,.facts,.meta,.where,.more,.type{color:var(--muted);font-size:12px}
.facts{margin-left:10px;font-weight:normal}
.filters{display:flex;gap:8px;flex-wrap:wrap;margin:0 0 12px}
.filters select,.filters input,.filters button{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:#fff}
.filters input{flex:1;min-width:180px}
.panel{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin-bottom:14px}
.changes-panel{border-left:4px solid var(--skip)}
.change-group h3{margin:8px 0 4px}.change-group>ul{margin:0;padding-left:18px}.change-group .failures{margin:2px 0 4px;padding-left:16px}
.change-group[data-group="newly failing"] h3,.change-group[data-group="still failing"] h3{color:var(--fail)}
.change-group[data-group="fixed"] h3{color:var(--pass)}.change-group[data-group="flaky"] h3{color:var(--skip)}
.moved-turns{margin-top:8px}.moved-turns>summary{cursor:pointer;color:var(--muted)}
.conversation{background:#fff;border:1px solid var(--line);border-left:4px solid var(--pass);border-radius:8px;
margin-bottom:8px;content-visibility:auto;contain-intrinsic-size:auto 38px}
.conversation.failed{border-left-color:var(--fail)}.conversation.skipped{border-left-color:#d4a72c}
.conversation>summary{cursor:pointer;padding:8px 12px;font-weight:600;list-style-position:inside}
.conversation.failed>summary{background:var(--fail-bg)}
.conversation .body{padding:4px 14px 12px}
.reason{border-left:3px solid var(--fail);background:var(--fail-bg);padding:6px 10px;margin:6px 0;border-radius:0 6px 6px 0}
.turn{border-top:1px solid var(--line);padding:10px 0}
.turn.failed{background:linear-gradient(90deg,var(--fail-bg),#fff 40%);margin:0 -14px;padding:10px 14px}
.bubble{max-width:78%;padding:7px 11px;border-radius:12px;margin:4px 0;border:1px solid var(--line)}
.bubble.user{background:var(--user);border-color:#b6e3ff;margin-left:auto;border-bottom-right-radius:3px}
.bubble.assistant{background:var(--bot);border-bottom-left-radius:3px}
.bubble pre.text{font-family:inherit;font-size:14px}
.bubble .type{display:block;margin-bottom:3px}
.meta{margin:2px 0 6px}
.checks{list-style:none;padding:0;margin:4px 0}
.check{padding:1px 0}
.check.failed{display:block;padding:4px 8px;margin:3px 0;border-radius:6px;background:var(--fail-bg)}
.check.skipped{display:block;font-size:12px;color:var(--muted)}
.check.skipped pre.message{display:inline;margin-left:6px;font-family:inherit}
.check.judged{display:block;padding:4px 8px;margin:3px 0;border-radius:6px;background:var(--bg)}
details.passed-checks>summary{cursor:pointer;font-size:12px;color:var(--pass);margin:2px 0}
details.passed-checks p{margin:2px 0 4px 16px;font-size:12px;color:var(--muted)}
.contract{font-size:11px;text-transform:uppercase;letter-spacing:.03em;color:var(--muted)}
pre.message{margin:3px 0 0 16px}
.compare{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:6px 0 2px 16px}
.compare>div{background:#fff;border:1px solid var(--line);border-radius:6px;padding:4px 8px;min-width:0}
.compare b,.change>b{font-size:11px;text-transform:uppercase;color:var(--muted)}
.change{margin-top:6px;padding:4px 8px;border:1px dashed var(--line);border-radius:6px}
.change ul{list-style:none;padding:0;margin:2px 0;font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.change .added{color:var(--pass)}.change .removed{color:var(--fail)}.change .changed{color:#0550ae}.change .exec{color:var(--muted)}
.verdict{display:block;margin:4px 0 0 16px}.score{font-weight:600}.reason p{margin:0}
.expectation{margin:2px 0 4px}.expectation b{font-size:11px;text-transform:uppercase;color:var(--muted)}
.bar{display:inline-block;position:relative;width:120px;height:8px;background:#eaeef2;border-radius:4px;vertical-align:middle;margin:0 6px}
.bar .fill{position:absolute;left:0;top:0;bottom:0;border-radius:4px}
.bar .fill.pass{background:var(--pass)}
.bar .fill.fail{background:var(--fail)}
.bar .mark{position:absolute;top:-3px;bottom:-3px;width:2px;background:var(--ink)}
.bar .range{position:absolute;top:0;bottom:0;min-width:3px;background:#0969da;border-radius:4px}
.verdict-list ul{margin:2px 0 2px 18px;padding:0}
.samples ol{margin:2px 0 2px 18px;padding:0;font-size:12px}.samples .sample-reason{color:var(--muted)}
.chip.unstable{background:var(--skip-bg);color:var(--skip);font-weight:600}
table{border-collapse:collapse;font-size:13px}
td,th{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--bg)}
.moved .worse td:first-child{border-left:3px solid var(--fail)}.moved .better td:first-child{border-left:3px solid var(--pass)}
.tags .chip{background:#ddf4ff;color:#0550ae;margin-right:4px}
.chip{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;margin:2px 0}
.chip.pass{background:var(--pass-bg);color:var(--pass)}
.chip.miss{background:#eaeef2;color:var(--muted)}
.chip.fail{background:var(--fail-bg);color:var(--fail)}details.flow>summary{cursor:pointer}details.flow>summary h3{display:inline}
.arrow{color:var(--muted);margin:0 3px}.flow{margin-bottom:10px}.tools{margin-top:4px}
details.fold>summary{cursor:pointer;list-style:none}details.fold[open]>summary{display:none}
dl.simulation{background:var(--user);border-radius:6px;padding:6px 10px;margin:6px 0}
.pass-k tr.flaky td:first-child{border-left:3px solid var(--skip)}.pass-k tr.run th,.pass-k tr.run td{font-weight:600}
details.sent{margin:2px 0 2px auto;max-width:78%;font-size:12px;color:var(--muted)}details.sent>summary{cursor:pointer;text-align:right}
details.sent pre{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:4px 8px;margin-top:2px;color:var(--ink)}
.tool-calls{padding:4px 8px;margin:4px 0;max-width:78%;border:1px dashed var(--line);border-radius:6px}
.tool-calls b{font-size:11px;text-transform:uppercase;color:var(--muted)}.tool-calls ul{list-style:none;padding:0;margin:2px 0}
.tool-calls li{padding:1px 0}.tool-calls pre{margin-left:16px}
.labels{position:sticky;top:0;z-index:1;display:flex;gap:10px;align-items:center;flex-wrap:wrap;background:#fff;
border:1px solid var(--line);border-radius:8px;padding:6px 12px;margin:0 0 12px}
.labelling{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin:4px 0 0 16px}
.labels button,.labelling button,.labelling input{font:inherit;font-size:12px;padding:2px 8px;border:1px solid var(--line);
border-radius:6px;background:#fff}
.labelling input{flex:1;min-width:160px}
.labelling button.chosen[data-human=right]{background:var(--pass-bg);border-color:var(--pass);color:var(--pass)}
.labelling button.chosen[data-human=wrong]{background:var(--fail-bg);border-color:var(--fail);color:var(--fail)}
[hidden]{display:none!important}
`;
