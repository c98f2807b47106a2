// Run a MicroPython script in the MicroPython WebAssembly VM (npm @micropython/micropython-webassembly-pyscript).
// usage: node run_wasm.mjs LIB_DIR DATA_DIR SCRIPT [HEAP_MB] [--lines]
//   LIB_DIR is copied to /lib (on sys.path; holds bbnode/*.mpy), DATA_DIR to /data (the cwd);
//   files the script writes under /data/out are copied back to DATA_DIR/out.
//   --lines: after the script, every line read from stdin is passed to the script's on_line(str) (a pipe
//   protocol for tests that drive the VM step by step); the VM exits at EOF or when on_line returns True.
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";
const here = path.dirname(fileURLToPath(import.meta.url));
const { loadMicroPython } = await import(
  path.join(here, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"));
const [lib, data, script, heapMb, mode] = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: (Number(heapMb) || 16) * 1024 * 1024,
  stdout: (l) => process.stdout.write(l + "\n"),
  stderr: (l) => process.stderr.write(l + "\n"),
});
function copyIn(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name), d = dst + "/" + e.name;
    if (e.isDirectory()) copyIn(s, d); else mp.FS.writeFile(d, fs.readFileSync(s));
  }
}
function copyOut(src, dst) {
  let names;
  try { names = mp.FS.readdir(src); } catch { return; }
  fs.mkdirSync(dst, { recursive: true });
  for (const n of names) {
    if (n === "." || n === "..") continue;
    const s = src + "/" + n, st = mp.FS.stat(s);
    if (mp.FS.isDir(st.mode)) copyOut(s, path.join(dst, n)); else fs.writeFileSync(path.join(dst, n), mp.FS.readFile(s));
  }
}
copyIn(lib, "/lib");
copyIn(data, "/data");
let rc = 0;
try {
  mp.runPython("import sys, os\nsys.path.insert(0, '/lib')\nos.chdir('/data')\n");
  mp.runPython(fs.readFileSync(script, "utf8"));
  if (mode === "--lines") {
    const onLine = mp.globals.get("on_line");
    const readline = await import("readline");
    const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of rl) {
      if (onLine(line) === true) break;
    }
  }
} catch (e) {
  process.stderr.write("MicroPython error: " + String(e && e.message ? e.message : e).slice(0, 4000) + "\n");
  rc = 1;
}
copyOut("/data/out", path.join(data, "out"));
process.exit(rc);
