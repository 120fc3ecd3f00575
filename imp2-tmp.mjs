const t = () => performance.now().toFixed(0);
let last = performance.now();
const step = async (name, f) => { await f(); const n = performance.now(); console.log(name, (n - last).toFixed(0)); last = n; };
await step("tsx", () => import("tsx"));
for (const m of process.argv.slice(2)) await step(m, () => import(m.startsWith("/") ? m : m));
