// Placeholder until the Node 22 branch lands: the floor the runner needs.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`flowcheck needs Node 22.18 or later (22, 24 or 26); this is ${process.versions.node}`);
  process.exit(1);
}
