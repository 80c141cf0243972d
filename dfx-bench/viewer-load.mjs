// Times the HTML viewer's opening in headless Chromium, driven over the DevTools protocol on a pipe (no npm package):
// for each run a new tab opens the page, and the page's own marks are read once it reports its first complete draw
// (viewer.js: performance mark 'dfx-first-draw', body data-dfx-first-draw-ms). Times are ms from the navigation's
// start (the tab's performance.timeOrigin); with them the CPU time Chromium's processes spent meanwhile (DevTools'
// SystemInfo.getProcessInfo), which does not grow with the machine's load as the wall time does. Prints one JSON line
// per run, then a summary line.
//
// usage: node viewer-load.mjs CHROMIUM PAGE.html RUNS [PROFILE.cpuprofile]
//   PROFILE: also records a V8 CPU profile of the last run and prints its heaviest functions by self time
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';

const [chromium, page, runsArg, profileOut] = process.argv.slice(2);
if (!chromium || !page) {
  console.error('usage: node viewer-load.mjs CHROMIUM PAGE.html [RUNS] [PROFILE.cpuprofile]');
  process.exit(2);
}
const runs = Number(runsArg || 5);
const url = pathToFileURL(resolve(page)).href;
const profileDir = mkdtempSync(join(tmpdir(), 'dfx-viewer-load-'));
const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--remote-debugging-pipe', '--window-size=1400,1000', '--hide-scrollbars', '--user-data-dir=' + profileDir,
  'about:blank'], {stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe']});

// CDP over the pipe: JSON messages ended by NUL, fd 3 to the browser, fd 4 from it
let nextId = 1, buffered = '';
const pending = new Map(), waiters = [];
browser.stdio[4].on('data', chunk => {
  buffered += chunk.toString('utf8');
  let end;
  while ((end = buffered.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (msg.id !== undefined && pending.has(msg.id)) {
      const {ok, fail} = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) { fail(new Error(JSON.stringify(msg.error))); } else { ok(msg.result); }
    } else {
      for (const w of waiters.splice(0)) { w(msg); }
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = {id, method, params};
  if (sessionId) { msg.sessionId = sessionId; }
  browser.stdio[3].write(JSON.stringify(msg) + '\0');
  return new Promise((ok, fail) => pending.set(id, {ok, fail}));
}
const sleep = ms => new Promise(r => setTimeout(r, ms));

async function evaluate(sessionId, expression) {
  const r = await send('Runtime.evaluate', {expression, returnByValue: true, awaitPromise: true}, sessionId);
  return r.result.value;
}

async function once(profile) {
  const {targetId} = await send('Target.createTarget', {url: 'about:blank'});
  const {sessionId} = await send('Target.attachToTarget', {targetId, flatten: true});
  await send('Page.enable', {}, sessionId);
  if (profile) {
    await send('Profiler.enable', {}, sessionId);
    await send('Profiler.setSamplingInterval', {interval: 200}, sessionId);
    await send('Profiler.start', {}, sessionId);
  }
  const cpuBefore = await cpuTimes();
  const wall = performance.now();
  await send('Page.navigate', {url}, sessionId);
  let drawn = null;
  for (let i = 0; i < 1200 && drawn === null; i++) {
    drawn = await evaluate(sessionId, "document.body && document.body.dataset.dfxFirstDrawMs || null");
    if (drawn === null) { await sleep(50); }
  }
  if (drawn === null) { throw new Error(url + ': no first draw within 60 s'); }
  const m = await evaluate(sessionId, `(() => {
    const n = performance.getEntriesByType('navigation')[0];
    const mark = name => { const e = performance.getEntriesByName(name)[0]; return e ? Math.round(e.startTime) : null; };
    return {firstDraw: mark('dfx-first-draw'), scriptStart: mark('dfx-script-start'),
      responseEnd: Math.round(n.responseEnd), domInteractive: Math.round(n.domInteractive),
      phases: JSON.parse(document.body.dataset.dfxPhases || '{}'), bytes: n.decodedBodySize};
  })()`);
  m.wallMs = Math.round(performance.now() - wall);
  // CPU time the browser's processes spent from the navigation to the first draw (and the polling: a few ms): what
  // the opening costs regardless of how many other programs share the cores; the renderer's is the critical path
  const cpuAfter = await cpuTimes();
  let total = 0, renderer = 0;
  for (const [id, p] of cpuAfter) {
    const spent = p.cpuTime - (cpuBefore.get(id)?.cpuTime || 0);
    total += spent;
    if (p.type === 'renderer') { renderer += spent; }
  }
  m.rendererCpuMs = Math.round(renderer * 1000);
  m.browserCpuMs = Math.round(total * 1000);
  if (profile) {
    const {profile: p} = await send('Profiler.stop', {}, sessionId);
    writeFileSync(profile, JSON.stringify(p));
    m.topSelfMs = heaviest(p, 12);
  }
  await send('Target.closeTarget', {targetId});
  return m;
}

/** @return per process id, its type and the CPU time it used so far (s) */
async function cpuTimes() {
  const {processInfo} = await send('SystemInfo.getProcessInfo');
  return new Map(processInfo.map(p => [p.id, p]));
}

/** @return the functions with the most self time in a CPU profile, ms */
function heaviest(p, n) {
  const self = new Map(), byId = new Map(p.nodes.map(x => [x.id, x]));
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]);
    const f = node.callFrame;
    const key = (f.functionName || '(anonymous)') + (f.lineNumber >= 0 && f.url ? ':' + (f.lineNumber + 1) : '');
    self.set(key, (self.get(key) || 0) + (p.timeDeltas[i] || 0) / 1000);
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => k + ' ' + Math.round(v));
}

try {
  await sleep(300);
  const all = [];
  for (let r = 0; r < runs; r++) {
    const m = await once(profileOut && r === runs - 1 ? profileOut : null);
    all.push(m);
    console.log(JSON.stringify({run: r + 1, ...m}));
  }
  const spread = key => {
    const v = all.map(m => m[key]).sort((a, b) => a - b);
    return {min: v[0], median: v[v.length >> 1], max: v[v.length - 1]};
  };
  console.log(JSON.stringify({page, runs, firstDrawMs: spread('firstDraw'), rendererCpuMs: spread('rendererCpuMs'),
    browserCpuMs: spread('browserCpuMs')}));
} finally {
  // Chromium writes its profile folder until it has exited: wait for that (at most 5 s) before removing it
  const exited = new Promise(r => browser.once('exit', r));
  browser.kill();
  await Promise.race([exited, sleep(5000)]);
  rmSync(profileDir, {recursive: true, force: true, maxRetries: 5, retryDelay: 200});
}
