// Issue 16: which values that Bun's built-ins hand to a ShadowRealm belong to
// the realm, and which to the realm that made it (its "host"). An object of
// the host's lets the realm reach the host's prototypes, which every later
// realm shares: a freshness hole unless they are frozen.
// `bun bench/realm/shadow-realm-boundary.ts` prints one line per built-in call.
type RealmLike = { evaluate(source: string): unknown };
const Realm = (globalThis as unknown as { ShadowRealm?: new () => RealmLike }).ShadowRealm;
if (!Realm) {
  console.log("this runtime has no ShadowRealm");
  process.exit(0);
}

const CALLS: Record<string, string> = {
  "fs.readFileSync(file)": "fs.readFileSync(file)",
  "fs.readFileSync(file, 'utf8') (a string)": "new String(fs.readFileSync(file, 'utf8'))",
  "fs.statSync(file)": "fs.statSync(file)",
  "fs.readdirSync(dir, { withFileTypes: true })[0]": "fs.readdirSync(dir, { withFileTypes: true })[0]",
  "fs.readdirSync(dir)": "fs.readdirSync(dir)",
  "an error thrown by fs.readFileSync":
    "(() => { try { fs.readFileSync(dir + '/missing'); } catch (e) { return e; } })()",
  "fs.promises.readFile(file) (the promise)": "fs.promises.readFile(file)",
  "fs.createReadStream(file)": "fs.createReadStream(file)",
  "child_process.spawnSync('true')": "cp.spawnSync('true')",
  "child_process.spawnSync('echo', ['x']).stdout": "cp.spawnSync('echo', ['x']).stdout",
  "child_process.execSync('echo x')": "cp.execSync('echo x')",
  "crypto.randomBytes(4)": "crypto.randomBytes(4)",
  "crypto.createHash('sha256').update('x').digest()": "crypto.createHash('sha256').update('x').digest()",
  "zlib.gzipSync('x')": "zlib.gzipSync('x')",
  "os.cpus()": "os.cpus()",
  "path.parse('/a/b')": "path.parse('/a/b')",
  "Buffer.from('x')": "Buffer.from('x')",
  "new TextEncoder().encode('x')": "new TextEncoder().encode('x')",
  "new URL('http://x')": "new URL('http://x')",
  "fetch (the promise)": "fetch('http://127.0.0.1:9/')",
  "structuredClone({})": "structuredClone({})",
  "process.memoryUsage()": "process.memoryUsage()",
  "process.hrtime()": "process.hrtime()",
  "Bun.file(file)": "Bun.file(file)",
  "Bun.spawnSync(['true'])": "Bun.spawnSync(['true'])",
  "new Response('x')": "new Response('x')",
};

const probe = (expression: string) => `(file, dir) => {
  const require = process.getBuiltinModule('node:module').createRequire(file);
  const fs = require('node:fs'), cp = require('node:child_process'), crypto = require('node:crypto'), zlib = require('node:zlib'), os = require('node:os'), path = require('node:path');
  const value = ${expression};
  if (value && typeof value.catch === 'function') value.catch(() => {});
  let proto = value, depth = 0;
  while (Object.getPrototypeOf(proto) !== null) { proto = Object.getPrototypeOf(proto); depth++; }
  return proto === Object.prototype ? 'realm' : 'HOST (' + (value?.constructor?.name ?? typeof value) + ')';
}`;

const ASYNC_CALLS: Record<string, string> = {
  "await fs.promises.readFile(file)": "fs.promises.readFile(file)",
  "await Bun.file(file).bytes()": "Bun.file(file).bytes()",
  "fs.readFile(file, callback): the buffer": "new Promise((ok) => fs.readFile(file, (e, b) => ok(b)))",
  "await new Response('x').arrayBuffer()": "new Response('x').arrayBuffer()",
};
const asyncProbe = (expression: string) => `(file, dir, answer) => {
  const require = process.getBuiltinModule('node:module').createRequire(file);
  const fs = require('node:fs');
  Promise.resolve(${expression}).then((value) => {
    let proto = value;
    while (Object.getPrototypeOf(proto) !== null) proto = Object.getPrototypeOf(proto);
    answer(proto === Object.prototype ? 'realm' : 'HOST (' + (value?.constructor?.name ?? typeof value) + ')');
  }, (e) => answer('rejects: ' + e.message));
}`;

const file = import.meta.path;
const dir = import.meta.dir;
for (const [name, expression] of Object.entries(CALLS)) {
  let answer: string;
  try {
    answer = (new Realm().evaluate(probe(expression)) as (f: string, d: string) => string)(file, dir);
  } catch (error) {
    answer = `throws: ${(error as Error).message.split("\n")[0]}`;
  }
  console.log(`${name.padEnd(52)} ${answer}`);
}
for (const [name, expression] of Object.entries(ASYNC_CALLS)) {
  const answer = await new Promise<string>((resolve) => {
    (new Realm().evaluate(asyncProbe(expression)) as (f: string, d: string, a: (s: string) => void) => void)(
      file,
      dir,
      resolve,
    );
  });
  console.log(`${name.padEnd(52)} ${answer}`);
}
process.exit(0);
