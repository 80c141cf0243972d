/*
 * dfx viewer: the interactive timeline of `dfx export RUN|perf.data --format html` (inlined by HtmlViewer).
 *
 * Data: the JSON object in <script id="dfx-data"> (HtmlViewer, ViewerTrace): a string table, processes and rows,
 * binary column arrays of slices {row, start, dur, name, cat, argSchema, argRow} and instants {row, ts, name, cat,
 * argSchema, argRow} with times in ns from the trace origin, flows {from, to, name} as slice indexes, counter series
 * {pid, name, ts, v}, args as value columns per key list (argKeys, argValues), the trace metadata, and for runs
 * run.json, pmu.csv (columns and data), scopes.jsonl, args.json and the capacity audit. Columns are written by
 * ColumnCodec.java: numbers as base64 typed arrays of the narrowest type, task ids as two 32-bit halves, repeated
 * strings as a dictionary (numbers(), values()).
 *
 * Drawing: one canvas, rows grouped by process; the slices of a row are split into depth levels (nested slices
 * one level deeper), each level sorted by start and non-overlapping, so the bars in view are found by binary search
 * and bars narrower than a pixel are merged into one rectangle per pixel run (level of detail): a frame costs about
 * one step per drawn pixel per level, not one per bar.
 *
 * Contract for tests and tools: window.dfxViewer (stats(), visibleRange(), axis(), setRange(), home(), focusTask(), select(),
 * selectedArrows(), counterSamples(), sliceColors(), slicesOfRow(), shadedWindows(), tipText(), ready).
 */
(function () {
  'use strict';
  const t0Load = performance.now();
  performance.mark('dfx-script-start'); // the page's bytes are read and parsed up to this script
  const D = JSON.parse(document.getElementById('dfx-data').textContent);
  const phases = {parse: Math.round(performance.now() - t0Load)};
  const mark = name => { phases[name] = Math.round(performance.now() - t0Load); };
  // number columns (ColumnCodec.java): {"u8"|"i8"|"u16"|"i16"|"u32"|"i32"|"f64": base64}, little-endian
  const KINDS = {u8: Uint8Array, i8: Int8Array, u16: Uint16Array, i16: Int16Array, u32: Uint32Array, i32: Int32Array,
    f64: Float64Array};
  function numbers(col) {
    const kind = Object.keys(col)[0], b64 = col[kind];
    let bytes;
    if (typeof Uint8Array.fromBase64 === 'function') {
      bytes = Uint8Array.fromBase64(b64); // native (Chromium 140+, Firefox 133+)
    } else {
      const bin = atob(b64), n = bin.length;
      bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) { bytes[i] = bin.charCodeAt(i); }
    }
    return new KINDS[kind](bytes.buffer);
  }
  // a value column: a JSON array, numbers, {"hex64": [hi, lo]} (task ids) or {"dict": [...], "at": numbers}
  function values(col) {
    if (Array.isArray(col)) { return {length: col.length, get: i => col[i]}; }
    if (col.hex64) {
      const hi = numbers(col.hex64[0]), lo = numbers(col.hex64[1]);
      const hex8 = v => v.toString(16).padStart(8, '0');
      return {length: lo.length, get: i => '0x' + hex8(hi[i]) + hex8(lo[i])};
    }
    if (col.dict) { const at = numbers(col.at), dict = col.dict; return {length: at.length, get: i => dict[at[i]]}; }
    const v = numbers(col);
    return {length: v.length, get: i => v[i]};
  }
  function columns(obj) {
    const out = {};
    for (const [k, v] of Object.entries(obj)) { out[k] = numbers(v); }
    return out;
  }
  const S = D.strings;
  const SL = columns(D.slices), IN = columns(D.instants), FL = columns(D.flows);
  for (const c of D.counters) { c.ts = numbers(c.ts); c.v = numbers(c.v); }
  const ARGS = D.argValues.map(schema => schema.map(values));
  mark('columns');
  const nSlices = SL.start.length, nInstants = IN.ts.length;

  const LABEL_W = 230, AXIS_H = 26, LEVEL_H = 16, PROC_H = 20, COUNTER_H = 38, ROW_PAD = 3;
  const DROP_CAT = 'drop', STALL_CAT = 'stall';
  const DROP_ID = S.indexOf(DROP_CAT), STALL_ID = S.indexOf(STALL_CAT); // their string-table indexes (-1: none)

  // ---------- units and formatting ----------
  const UNITS = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']];
  function fmtDur(ns) {
    const a = Math.abs(ns);
    for (const [u, n] of UNITS) {
      if (a >= u || u === 1) { return (u === 1 ? String(Math.round(ns)) : (ns / u).toFixed(3).replace(/\.?0+$/, '')) + ' ' + n; }
    }
    return ns + ' ns';
  }
  function fmtTime(ns, step) {
    // a time on the axis, in the unit of the tick step, with as many decimals as the step needs
    let u = 1, n = 'ns';
    for (const [uu, nn] of UNITS) { if (step >= uu) { u = uu; n = nn; break; } }
    const dec = Math.max(0, Math.min(9, Math.ceil(-Math.log10(step / u) + 1e-9)));
    const t = (ns / u).toFixed(dec);
    // a time just before the axis' zero (the view's padding) rounds to "-0": print it as 0
    return (/^-0(\.0*)?$/.test(t) ? t.slice(1) : t) + ' ' + n;
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
  }
  function kernelOf(name) { return name.replace(/\(.*$/, '').replace(/ \d+$/, '').replace(/^submit /, ''); }
  const colorCache = new Map();
  const nameColor = new Array(S.length); // colour per string-table index: no regex per drawn bar
  function barColor(i) {
    const n = SL.name[i];
    let c = nameColor[n];
    if (c === undefined) { c = nameColor[n] = colorOf(S[n], S[SL.cat[i]]); }
    return c;
  }
  function colorOf(name, cat) {
    if (cat === STALL_CAT) { return '#dc2626'; }
    if (cat === DROP_CAT) { return '#7c3aed'; }
    const k = kernelOf(name);
    let c = colorCache.get(k);
    if (c === undefined) {
      let h = 2166136261;
      for (let i = 0; i < k.length; i++) { h ^= k.charCodeAt(i); h = Math.imul(h, 16777619); }
      c = 'hsl(' + ((h >>> 0) % 360) + ',' + (50 + ((h >>> 9) % 25)) + '%,' + (52 + ((h >>> 17) % 14)) + '%)';
      colorCache.set(k, c);
    }
    return c;
  }
  function argsOf(schema, row) {
    // the row of each value column of that key list (ArgColumns); schema -1: no args
    if (schema < 0) { return null; }
    const keys = D.argKeys[schema], cols = ARGS[schema], o = {};
    for (let i = 0; i < keys.length; i++) { o[keys[i]] = cols[i].get(row); }
    return o;
  }
  const sliceArgs = i => argsOf(SL.argSchema[i], SL.argRow[i]);
  const instantArgs = i => argsOf(IN.argSchema[i], IN.argRow[i]);

  // ---------- layout: processes, rows, depth levels ----------
  const procs = new Map();
  for (const p of D.processes) { procs.set(p.pid, {pid: p.pid, name: p.name, sort: p.sort, rows: [], counters: []}); }
  D.rows.forEach((r, i) => {
    if (!procs.has(r.pid)) { procs.set(r.pid, {pid: r.pid, name: 'process ' + r.pid, sort: 1e9, rows: [], counters: []}); }
    procs.get(r.pid).rows.push(i);
  });
  for (const c of D.counters) {
    if (!procs.has(c.pid)) { procs.set(c.pid, {pid: c.pid, name: 'process ' + c.pid, sort: 1e9, rows: [], counters: []}); }
    procs.get(c.pid).counters.push(c);
  }
  const procList = [...procs.values()].sort((a, b) => a.sort - b.sort || a.pid - b.pid);
  for (const p of procList) { p.rows.sort((a, b) => D.rows[a].sort - D.rows[b].sort || D.rows[a].tid - D.rows[b].tid); }

  // slices per row, sorted by start (longer first), then split into depth levels by a stack of open ends
  const perRow = D.rows.map(() => []);
  for (let i = 0; i < nSlices; i++) { perRow[SL.row[i]].push(i); }
  const sliceLevel = new Int32Array(nSlices);
  const rowLevels = perRow.map(list => {
    // the sink contract offers a row's slices in start order (nested ones after their holder): sort only if not
    let sorted = true;
    for (let k = 1; k < list.length && sorted; k++) {
      const a = list[k - 1], b = list[k];
      sorted = SL.start[a] < SL.start[b] || (SL.start[a] === SL.start[b] && SL.dur[a] >= SL.dur[b]);
    }
    if (!sorted) { list.sort((a, b) => SL.start[a] - SL.start[b] || SL.dur[b] - SL.dur[a]); }
    const levels = [], ends = [];
    for (const i of list) {
      const s = SL.start[i];
      while (ends.length && ends[ends.length - 1] <= s && !(SL.dur[i] === 0 && ends[ends.length - 1] === s)) { ends.pop(); }
      // a slice that starts inside the open one but ends after it cannot nest: put it below the deepest open level
      const d = ends.length;
      ends.push(s + SL.dur[i]);
      sliceLevel[i] = d;
      (levels[d] = levels[d] || []).push(i);
    }
    return levels.map(l => {
      const idx = Int32Array.from(l);
      const st = new Float64Array(idx.length);
      let maxDur = 0;
      for (let k = 0; k < idx.length; k++) { st[k] = SL.start[idx[k]]; maxDur = Math.max(maxDur, SL.dur[idx[k]]); }
      return {idx, st, maxDur};
    });
  });
  mark('levels');
  const perRowInstants = D.rows.map(() => []);
  for (let i = 0; i < nInstants; i++) { perRowInstants[IN.row[i]].push(i); }
  for (const l of perRowInstants) { l.sort((a, b) => IN.ts[a] - IN.ts[b]); }

  // the vertical layout: a header per process, its rows (one line per level), its counter tracks
  const tracks = []; // {type, y, h, ...}
  const rowTop = new Float64Array(D.rows.length);
  let totalH = AXIS_H;
  for (const p of procList) {
    tracks.push({type: 'proc', y: totalH, h: PROC_H, proc: p});
    totalH += PROC_H;
    for (const r of p.rows) {
      const levels = Math.max(1, rowLevels[r].length);
      const h = levels * LEVEL_H + ROW_PAD;
      tracks.push({type: 'row', y: totalH, h, row: r});
      rowTop[r] = totalH;
      totalH += h;
    }
    counterTrackList(p.counters.filter(c => !isBufferDepth(c)), '');
  }
  // dfx's own buffers (QueueDepthCounters: each lane's free queue, each writer's ready queue) come last, under one
  // header, so the workload's rows stay together; a command's tracks name their writer's process
  const bufferTracks = procList.filter(p => p.counters.some(isBufferDepth));
  if (bufferTracks.length) {
    tracks.push({type: 'proc', y: totalH, h: PROC_H, proc: {name: 'dfx buffers: free-queue and ready-queue depths'}});
    totalH += PROC_H;
    for (const p of bufferTracks) { counterTrackList(p.counters.filter(isBufferDepth), D.source === 'program' ? p.name + ': ' : ''); }
  }
  totalH += 8;
  function isBufferDepth(c) { return /^(free|ready)-queue depth \(/.test(c.name); }
  function counterTrackList(list, prefix) {
    for (const [c, low, name] of counterTracks(list)) {
      let max = 0;
      for (const v of c.v) { max = Math.max(max, v); }
      tracks.push({type: 'counter', y: totalH, h: COUNTER_H, counter: c, low, name: prefix + name, max});
      totalH += COUNTER_H;
    }
  }

  // a counter's "NAME min" and "NAME max" series (a queue depth's extremes, QueueDepthCounters) share one track: the
  // max series' area with the min series' area over it; any other series is a track of its own
  function counterTracks(list) {
    const byName = new Map(list.map(c => [c.name, c]));
    const out = [];
    for (const c of list) {
      const base = c.name.replace(/ (min|max)$/, '');
      const low = byName.get(base + ' min'), high = byName.get(base + ' max');
      if (base === c.name || !low || !high || low.ts.length !== high.ts.length) {
        out.push([c, null, c.name]);
      } else if (c === high) {
        out.push([high, low, base]);
      }
    }
    return out;
  }

  // rows of one thread (its sub-rows, its STALL and DROPPED rows) share stall and drop shading
  function groupKey(r) { return D.rows[r].pid + '/' + D.rows[r].name.replace(/ \(\d+\)$/, '').replace(/ (STALL|DROPPED)$/, ''); }
  const groups = new Map();
  D.rows.forEach((r, i) => { const k = groupKey(i); if (!groups.has(k)) { groups.set(k, []); } groups.get(k).push(i); });
  const shades = []; // {rows, start, end, cat}
  for (let i = 0; i < nSlices; i++) {
    const c = SL.cat[i]; // string-table indexes: no string per slice at load
    if (c === STALL_ID || c === DROP_ID) {
      shades.push({rows: groups.get(groupKey(SL.row[i])), start: SL.start[i], end: SL.start[i] + SL.dur[i], cat: S[c]});
    }
  }

  // ---------- flows: recorded arrows, plus wakeup arrows derived for perf.data ----------
  const flowFrom = Array.from(FL.from), flowTo = Array.from(FL.to), flowName = Array.from(FL.name, n => S[n]);
  const flowKind = flowFrom.map(() => 'slice'); // 'slice': from slice end; 'instant': from an instant
  if (D.source === 'perf') { wakeups(); }
  function wakeups() {
    // sched_wakeup (and _new) instants: the arrow goes to the woken task's next run on any cpu
    const runsByPid = new Map();
    for (let i = 0; i < nSlices; i++) {
      if (S[SL.cat[i]] !== 'sched') { continue; }
      const m = / (-?\d+)$/.exec(S[SL.name[i]]);
      if (!m) { continue; }
      const pid = +m[1];
      if (!runsByPid.has(pid)) { runsByPid.set(pid, []); }
      runsByPid.get(pid).push(i);
    }
    for (const l of runsByPid.values()) { l.sort((a, b) => SL.start[a] - SL.start[b]); }
    for (let i = 0; i < nInstants; i++) {
      const name = S[IN.name[i]];
      if (name !== 'sched:sched_wakeup' && name !== 'sched:sched_wakeup_new') { continue; }
      const a = instantArgs(i);
      const m = a && /\bpid=(\d+)/.exec(a.trace || '');
      const runs = m && runsByPid.get(+m[1]);
      if (!runs) { continue; }
      let lo = 0, hi = runs.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (SL.start[runs[mid]] < IN.ts[i]) { lo = mid + 1; } else { hi = mid; } }
      if (lo < runs.length) { flowFrom.push(i); flowTo.push(runs[lo]); flowName.push('wakeup'); flowKind.push('instant'); }
    }
  }
  // the arrows at each slice as one index (CSR: sliceFlowAt[i]..sliceFlowAt[i+1] in sliceFlowList), and at instants
  const sliceFlowAt = new Int32Array(nSlices + 1);
  const instantFlows = new Map();
  flowFrom.forEach((f, k) => {
    if (flowKind[k] === 'instant') {
      if (!instantFlows.has(f)) { instantFlows.set(f, []); }
      instantFlows.get(f).push(k);
    } else {
      sliceFlowAt[f + 1]++;
    }
    sliceFlowAt[flowTo[k] + 1]++;
  });
  for (let i = 0; i < nSlices; i++) { sliceFlowAt[i + 1] += sliceFlowAt[i]; }
  const sliceFlowList = new Int32Array(sliceFlowAt[nSlices]);
  {
    const fill = sliceFlowAt.slice(0, nSlices);
    flowFrom.forEach((f, k) => {
      if (flowKind[k] !== 'instant') { sliceFlowList[fill[f]++] = k; }
      sliceFlowList[fill[flowTo[k]]++] = k;
    });
  }
  function flowsOfSlice(i) { return i < 0 ? [] : sliceFlowList.subarray(sliceFlowAt[i], sliceFlowAt[i + 1]); }
  function flowsOfInstant(i) { return instantFlows.get(i) || []; }

  // ---------- joins for the tooltip: pmu rows and args.json entries by task id, built at the first hover ----------
  let pmuByTask = null, argsByTask = null, pmuTable = null;
  function pmuRows() {
    // pmu.csv's rows, made from its columns when a hover or its table first needs them
    if (!pmuTable) {
      const cols = D.pmu.data.map(values), n = cols.length ? cols[0].length : 0;
      pmuTable = new Array(n);
      for (let i = 0; i < n; i++) { pmuTable[i] = cols.map(c => c.get(i)); }
    }
    return pmuTable;
  }
  function joins() {
    if (pmuByTask) { return; }
    pmuByTask = new Map();
    argsByTask = new Map();
    if (D.pmu) {
      const ti = D.pmu.columns.indexOf('task_id');
      pmuRows().forEach(r => { if (!pmuByTask.has(r[ti])) { pmuByTask.set(r[ti], r); } });
    }
    for (const e of Array.isArray(D.taskArgs) ? D.taskArgs : []) {
      if (!argsByTask.has(e.task_id)) { argsByTask.set(e.task_id, []); }
      argsByTask.get(e.task_id).push(e);
    }
  }

  mark('flows');
  // ---------- view state ----------
  let dataStart = Infinity, dataEnd = -Infinity;
  for (let i = 0; i < nSlices; i++) {
    if (SL.cat[i] === DROP_ID) { continue; } // a whole-run drop mark would pull the view back to the origin
    dataStart = Math.min(dataStart, SL.start[i]);
    dataEnd = Math.max(dataEnd, SL.start[i] + SL.dur[i]);
  }
  for (let i = 0; i < nInstants; i++) { dataStart = Math.min(dataStart, IN.ts[i]); dataEnd = Math.max(dataEnd, IN.ts[i]); }
  // counters frame the view only when nothing else does: a pipeline counter's first point (a free queue filled at
  // start-up) comes before the workload
  if (!isFinite(dataStart)) {
    for (const c of D.counters) { if (c.ts.length) { dataStart = Math.min(dataStart, c.ts[0]); dataEnd = Math.max(dataEnd, c.ts[c.ts.length - 1]); } }
  }
  if (!isFinite(dataStart)) { dataStart = 0; dataEnd = 1e6; }
  if (dataEnd <= dataStart) { dataEnd = dataStart + 1000; }
  const pad = (dataEnd - dataStart) * 0.01;
  const home = [dataStart - pad, dataEnd + pad];
  let v0 = home[0], v1 = home[1];
  // the time axis' zero: a run's recording start (its trace origin); perf's clock counts from the machine's boot, so a
  // perf.data page counts from its first event, as Perfetto does, and names that event's time on perf's clock
  const axisZero = D.source === 'perf' ? dataStart : 0;
  const AXIS_TITLE = D.source === 'perf' ? 'time since the first event' : 'time since recording start';
  function perfClock(ns) { // perf script's seconds, to the ns: the page's times count from originSec + originSubNs,
    const t = ns + (D.originSubNs || 0); // kept apart because past 2^53 ns (104 days of uptime) a double is not exact
    const carry = Math.floor(t / 1e9);
    return ((D.originSec || 0) + carry) + '.' + String(Math.round(t - carry * 1e9)).padStart(9, '0') + ' s';
  }
  /** a time for the tooltip: from the axis' zero, and on perf's clock for perf.data */
  function fmtAt(ns) {
    return fmtTime(ns - axisZero, 1) + (D.source === 'perf' ? ' (' + perfClock(ns) + ' on perf\'s clock)' : '');
  }
  let selected = -1, selectedInstant = -1, hover = null, lastRects = 0;
  let axisLabels = []; // the tick labels drawn last, left to right

  // ---------- DOM ----------
  const root = document.body;
  const header = document.createElement('header');
  header.innerHTML = '<h1>' + esc(D.title) + '</h1><div class="facts">' + facts() + '</div>';
  root.appendChild(header);
  const bar = document.createElement('div');
  bar.id = 'bar';
  bar.innerHTML = '<button id="zin" title="zoom in (W)">+</button><button id="zout" title="zoom out (S)">−</button>'
    + '<button id="zhome" title="fit the workload (0)">fit</button><span class="range" id="range"></span>'
    + '<span class="help">wheel: zoom · shift+wheel, drag, A/D, ←/→: pan · W/S: zoom · 0: fit · click a bar: its arrows</span>';
  root.appendChild(bar);
  const box = document.createElement('div');
  box.id = 'timeline';
  box.tabIndex = 0;
  const canvas = document.createElement('canvas');
  const spacer = document.createElement('div');
  box.appendChild(canvas);
  box.appendChild(spacer);
  root.appendChild(box);
  const tip = document.createElement('div');
  tip.id = 'tip';
  root.appendChild(tip);
  const ctx = canvas.getContext('2d');
  let W = 0, H = 0;

  function facts() {
    const m = D.meta || {}, r = D.run;
    const parts = [];
    if (D.source === 'perf') {
      parts.push('perf.data', (m.task_runs || 0) + ' task runs');
    } else if (r) {
      if (r.program) { parts.push('command: ' + esc((r.program.command || []).join(' ')), 'exit status ' + r.program.exit_status); } else { parts.push('workload ' + esc(r.workload.name) + ', ' + r.workload.tasks + ' tasks, ' + fmtDur(r.workload.wall_ns)); }
      parts.push('status ' + esc(r.status) + (r.reason ? ' (' + esc(r.reason) + ')' : ''), 'recording ' + fmtDur(r.wall_ns), 'policy ' + esc(r.config.policy), 'started ' + esc(r.start));
    }
    parts.push(nSlices + ' slices, ' + nInstants + ' instants, ' + flowFrom.length + ' arrows');
    return parts.join(' · ');
  }

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    W = Math.max(400, box.clientWidth);
    H = Math.min(totalH, Math.max(200, Math.round(window.innerHeight * 0.72)));
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    canvas.style.width = W + 'px';
    canvas.style.height = H + 'px';
    spacer.style.height = Math.max(0, totalH - H) + 'px';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    draw();
  }

  // ---------- drawing ----------
  const plotW = () => W - LABEL_W;
  const xOf = t => LABEL_W + (t - v0) * plotW() / (v1 - v0);
  const tOf = x => v0 + (x - LABEL_W) * (v1 - v0) / plotW();
  let frame = 0;
  function draw() { if (!frame) { frame = requestAnimationFrame(() => { frame = 0; paint(); }); } }

  function lowerBound(arr, t) {
    let lo = 0, hi = arr.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] < t) { lo = m + 1; } else { hi = m; } }
    return lo;
  }

  function paint() {
    const scroll = box.scrollTop;
    ctx.clearRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    const scale = plotW() / (v1 - v0);
    let rects = 0;
    for (const tr of tracks) {
      const y = tr.y - scroll;
      if (y + tr.h < AXIS_H || y > H) { continue; }
      if (tr.type === 'proc') {
        ctx.fillStyle = '#e5e7eb';
        ctx.fillRect(0, y, W, tr.h);
        ctx.fillStyle = '#111827';
        ctx.font = '600 12px system-ui, sans-serif';
        ctx.fillText(tr.proc.name, 6, y + tr.h / 2);
        ctx.font = '11px system-ui, sans-serif';
        continue;
      }
      ctx.fillStyle = '#fff';
      ctx.fillRect(LABEL_W, y, W - LABEL_W, tr.h);
      if (tr.type === 'row') {
        rects += paintRow(tr.row, y, scale);
      } else {
        paintCounter(tr, y);
      }
      ctx.fillStyle = '#f9fafb';
      ctx.fillRect(0, y, LABEL_W, tr.h);
      ctx.fillStyle = '#374151';
      const label = tr.type === 'row' ? D.rows[tr.row].name : tr.name;
      ctx.fillText(label.length > 36 ? label.slice(0, 35) + '…' : label, 10, y + Math.min(tr.h, LEVEL_H + ROW_PAD) / 2);
      ctx.fillStyle = '#eef0f3';
      ctx.fillRect(0, y + tr.h - 1, W, 1);
    }
    paintShades(scroll);
    paintArrows(scroll);
    paintAxis();
    lastRects = rects;
    document.getElementById('range').textContent = 'view ' + fmtTime(v0 - axisZero, (v1 - v0) / 10) + ' – '
      + fmtTime(v1 - axisZero, (v1 - v0) / 10) + ' (' + fmtDur(v1 - v0) + ')'
      + (D.source === 'perf' ? ' · first event at ' + perfClock(axisZero) + ' on perf\'s clock' : '');
  }

  function paintRow(r, y, scale) {
    let rects = 0;
    const levels = rowLevels[r];
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, y, W - LABEL_W, LEVEL_H * Math.max(1, levels.length) + ROW_PAD);
    ctx.clip();
    for (let d = 0; d < levels.length; d++) {
      const {idx, st, maxDur} = levels[d];
      const ly = y + 1 + d * LEVEL_H, lh = LEVEL_H - 2;
      let k = lowerBound(st, v0 - maxDur);
      // pending merged rectangle of bars narrower than a pixel
      let px0 = -1, px1 = -1, pcol = null;
      const flush = () => { if (pcol !== null) { ctx.fillStyle = pcol; ctx.fillRect(px0, ly, Math.max(1, px1 - px0), lh); rects++; pcol = null; } };
      while (k < idx.length) {
        const i = idx[k];
        const s = st[k];
        if (s > v1) { break; }
        const e = s + SL.dur[i];
        if (e < v0) { k++; continue; }
        const x0 = LABEL_W + (s - v0) * scale, x1 = LABEL_W + (e - v0) * scale;
        if (x1 - x0 < 1) {
          if (pcol !== null && x0 <= px1 + 1) {
            px1 = Math.max(px1, x1, px0 + 1);
          } else {
            flush();
            px0 = x0; px1 = Math.max(x1, x0 + 1); pcol = barColor(i);
          }
          // skip the bars that start inside this pixel: they are merged into it; only the last one can reach out
          const jump = lowerBound(st, v0 + (Math.floor(px1) + 1 - LABEL_W) / scale);
          if (jump > k + 1) {
            const last = idx[jump - 1];
            px1 = Math.max(px1, LABEL_W + (st[jump - 1] + SL.dur[last] - v0) * scale);
            k = jump;
          } else {
            k++;
          }
          continue;
        }
        flush();
        const cx0 = Math.max(x0, LABEL_W - 2), cx1 = Math.min(x1, W + 2);
        const cat = S[SL.cat[i]];
        ctx.fillStyle = barColor(i);
        ctx.fillRect(cx0, ly, cx1 - cx0, lh);
        rects++;
        if (cat === DROP_CAT) {
          ctx.strokeStyle = '#ffffff88';
          for (let hx = cx0 - lh; hx < cx1; hx += 6) { ctx.beginPath(); ctx.moveTo(hx, ly + lh); ctx.lineTo(hx + lh, ly); ctx.stroke(); }
        }
        if (i === selected) { ctx.strokeStyle = '#111827'; ctx.lineWidth = 2; ctx.strokeRect(cx0 + 1, ly + 1, cx1 - cx0 - 2, lh - 2); ctx.lineWidth = 1; }
        if (cx1 - cx0 > 30) {
          ctx.fillStyle = '#111827';
          const name = S[SL.name[i]];
          const room = Math.floor((cx1 - cx0 - 6) / 6);
          ctx.fillText(name.length > room ? name.slice(0, Math.max(0, room - 1)) + '…' : name, cx0 + 3, ly + lh / 2);
        }
        k++;
      }
      flush();
    }
    // instants: small diamonds on the first level
    const ins = perRowInstants[r];
    if (ins.length) {
      let k = 0, lo = 0, hi = ins.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (IN.ts[ins[m]] < v0) { lo = m + 1; } else { hi = m; } }
      k = lo;
      let lastX = -10;
      for (; k < ins.length && IN.ts[ins[k]] <= v1; k++) {
        const x = xOf(IN.ts[ins[k]]);
        if (x - lastX < 1) { continue; }
        lastX = x;
        ctx.fillStyle = ins[k] === selectedInstant ? '#111827' : '#0f766e';
        ctx.beginPath();
        ctx.moveTo(x, y + 2); ctx.lineTo(x + 4, y + LEVEL_H / 2); ctx.lineTo(x, y + LEVEL_H - 2); ctx.lineTo(x - 4, y + LEVEL_H / 2);
        ctx.fill();
        rects++;
      }
    }
    ctx.restore();
    return rects;
  }

  function paintCounter(tr, y) {
    const max = tr.max || 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, y, W - LABEL_W, tr.h);
    ctx.clip();
    if (tr.low) {
      paintSeries(tr.counter, max, y, tr.h, '#dbeafe', Math.max);
      paintSeries(tr.low, max, y, tr.h, '#93c5fd', Math.min);
    } else {
      paintSeries(tr.counter, max, y, tr.h, '#93c5fd', Math.max);
    }
    ctx.fillStyle = '#6b7280';
    ctx.fillText('max ' + max, W - 70, y + 8);
    ctx.restore();
  }

  /** one series as a step area, at most a step per pixel (within a pixel, pick keeps the highest or the lowest) */
  function paintSeries(c, max, y, trackH, fill, pick) {
    const ts = c.ts, vs = c.v;
    const base = y + trackH - 4, h = trackH - 10;
    ctx.fillStyle = fill;
    let k = Math.max(0, lowerBound(ts, v0) - 1);
    ctx.beginPath();
    ctx.moveTo(LABEL_W, base);
    let lastX = LABEL_W, lastY = base;
    if (k < ts.length && ts[k] <= v0) { lastY = base - vs[k] / max * h; }
    ctx.lineTo(LABEL_W, lastY);
    for (; k < ts.length && ts[k] <= v1; k++) {
      const x = Math.max(LABEL_W, xOf(ts[k]));
      let v = vs[k];
      while (k + 1 < ts.length && xOf(ts[k + 1]) - x < 1 && ts[k + 1] <= v1) { k++; v = pick(v, vs[k]); }
      const yy = base - v / max * h;
      ctx.lineTo(x, lastY);
      ctx.lineTo(x, yy);
      lastX = x; lastY = yy;
    }
    const endX = Math.min(W, Math.max(lastX, xOf(ts.length ? Math.min(v1, ts[ts.length - 1]) : v0)));
    ctx.lineTo(endX, lastY);
    ctx.lineTo(endX, base);
    ctx.closePath();
    ctx.fill();
  }

  function paintShades(scroll) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, AXIS_H, W - LABEL_W, H - AXIS_H);
    ctx.clip();
    for (const s of shades) {
      if (s.end < v0 || s.start > v1) { continue; }
      const x0 = Math.max(LABEL_W, xOf(s.start)), x1 = Math.max(x0 + 1, Math.min(W, xOf(s.end)));
      ctx.fillStyle = s.cat === STALL_CAT ? 'rgba(220,38,38,0.16)' : 'rgba(124,58,237,0.10)';
      for (const r of s.rows) {
        const tr = tracks.find(t => t.type === 'row' && t.row === r);
        ctx.fillRect(x0, tr.y - scroll, x1 - x0, tr.h - 1);
      }
    }
    ctx.restore();
  }

  function sliceBox(i, scroll) {
    const y = rowTop[SL.row[i]] - scroll + 1 + sliceLevel[i] * LEVEL_H;
    return {x0: xOf(SL.start[i]), x1: xOf(SL.start[i] + SL.dur[i]), y: y + (LEVEL_H - 2) / 2};
  }

  function paintArrows(scroll) {
    const list = selected >= 0 ? flowsOfSlice(selected) : flowsOfInstant(selectedInstant);
    if (!list.length) { return; }
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, AXIS_H, W - LABEL_W, H - AXIS_H);
    ctx.clip();
    ctx.strokeStyle = '#111827';
    ctx.fillStyle = '#111827';
    ctx.lineWidth = 1.2;
    for (const k of list) {
      let ax, ay;
      if (flowKind[k] === 'instant') {
        const i = flowFrom[k];
        ax = xOf(IN.ts[i]);
        ay = rowTop[IN.row[i]] - scroll + LEVEL_H / 2;
      } else {
        const b = sliceBox(flowFrom[k], scroll);
        ax = b.x1; ay = b.y;
      }
      const to = sliceBox(flowTo[k], scroll);
      const bx = to.x0, by = to.y;
      const mx = (ax + bx) / 2;
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.bezierCurveTo(mx, ay, mx, by, bx, by);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(bx, by); ctx.lineTo(bx - 7, by - 4); ctx.lineTo(bx - 7, by + 4);
      ctx.fill();
    }
    ctx.restore();
  }

  function paintAxis() {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, AXIS_H);
    ctx.fillStyle = '#f9fafb';
    ctx.fillRect(0, 0, LABEL_W, AXIS_H);
    ctx.fillStyle = '#6b7280';
    ctx.fillText(AXIS_TITLE, 8, AXIS_H / 2);
    const span = v1 - v0;
    const raw = span / Math.max(1, plotW() / 110);
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw);
    ctx.strokeStyle = '#d1d5db';
    ctx.fillStyle = '#374151';
    axisLabels = [];
    for (let t = axisZero + Math.ceil((v0 - axisZero) / step) * step; t <= v1; t += step) {
      const x = xOf(t);
      ctx.beginPath();
      ctx.moveTo(x + 0.5, AXIS_H - 8);
      ctx.lineTo(x + 0.5, H);
      ctx.globalAlpha = 0.5;
      ctx.stroke();
      ctx.globalAlpha = 1;
      const label = fmtTime(t - axisZero, step);
      axisLabels.push(label);
      ctx.fillText(label, x + 3, AXIS_H / 2 - 2);
    }
    ctx.fillStyle = '#d1d5db';
    ctx.fillRect(0, AXIS_H - 1, W, 1);
  }

  // ---------- hit testing and the tooltip ----------
  function hit(x, y) {
    const yy = y + box.scrollTop;
    if (x < LABEL_W || y < AXIS_H) { return null; }
    const tr = tracks.find(t => yy >= t.y && yy < t.y + t.h);
    if (!tr) { return null; }
    const t = tOf(x), tol = 2 * (v1 - v0) / plotW();
    if (tr.type === 'counter') {
      const ts = tr.counter.ts;
      const k = lowerBound(ts, t + 1) - 1;
      return k >= 0 ? {counter: tr.counter, low: tr.low, name: tr.name, k} : null;
    }
    if (tr.type !== 'row') { return null; }
    const r = tr.row;
    if (yy - tr.y < LEVEL_H) {
      const ins = perRowInstants[r];
      let best = -1, bestD = 4 * (v1 - v0) / plotW();
      let lo = 0, hi = ins.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (IN.ts[ins[m]] < t - bestD) { lo = m + 1; } else { hi = m; } }
      for (let k = lo; k < ins.length; k++) {
        const d = Math.abs(IN.ts[ins[k]] - t);
        if (d <= bestD) { best = ins[k]; bestD = d; }
        if (IN.ts[ins[k]] > t + bestD) { break; }
      }
      if (best >= 0) { return {instant: best}; }
    }
    const d = Math.floor((yy - tr.y - 1) / LEVEL_H);
    const level = rowLevels[r][d];
    if (!level) { return null; }
    const k = lowerBound(level.st, t + tol) - 1;
    // the last bar starting before the cursor, or a sub-pixel bar just before it
    for (let j = k; j >= 0 && j >= k - 2; j--) {
      const i = level.idx[j];
      if (level.st[j] + SL.dur[i] >= t - tol) { return {slice: i}; }
    }
    return null;
  }

  function sliceText(i) {
    const name = S[SL.name[i]], cat = S[SL.cat[i]], a = sliceArgs(i) || {};
    const lines = ['<b>' + esc(name) + '</b>  (' + esc(cat) + ', row ' + esc(D.rows[SL.row[i]].name) + ')'];
    if (a.task_id !== undefined) { lines.push('task id ' + esc(a.task_id) + (cat === 'task' || cat === 'dispatch' || cat === 'submit' ? ', kernel ' + esc(kernelOf(name)) : '')); }
    lines.push('start ' + fmtAt(SL.start[i]) + ', end ' + fmtAt(SL.start[i] + SL.dur[i]) + ', duration ' + fmtDur(SL.dur[i]));
    for (const [k, v] of Object.entries(a)) {
      if (k !== 'task_id') { lines.push(esc(k) + ': ' + esc(typeof v === 'object' ? JSON.stringify(v) : v)); }
    }
    joins();
    if (a.task_id !== undefined && pmuByTask.has(a.task_id)) {
      const row = pmuByTask.get(a.task_id), cols = D.pmu.columns;
      lines.push('pmu: ' + cols.map((c, j) => c === 'task_id' ? null : esc(c) + '=' + esc(row[j])).filter(Boolean).join(', '));
    }
    if (a.task_id !== undefined && argsByTask.has(a.task_id)) {
      for (const e of argsByTask.get(a.task_id).slice(0, 8)) {
        lines.push('arg ' + esc(e.arg_index !== undefined ? e.arg_index : '') + ': ' + esc(JSON.stringify(e)));
      }
    }
    const fl = flowsOfSlice(i);
    if (fl.length) { lines.push(fl.length + ' arrow' + (fl.length === 1 ? '' : 's') + ' (click to draw)'); }
    return lines.join('\n');
  }

  function hoverText(h) {
    if (!h) { return ''; }
    if (h.slice !== undefined) { return sliceText(h.slice); }
    if (h.instant !== undefined) {
      const i = h.instant, a = instantArgs(i) || {};
      const lines = ['<b>' + esc(S[IN.name[i]]) + '</b>  (' + esc(S[IN.cat[i]]) + ')', 'at ' + fmtAt(IN.ts[i])];
      for (const [k, v] of Object.entries(a)) { lines.push(esc(k) + ': ' + esc(typeof v === 'object' ? JSON.stringify(v) : v)); }
      return lines.join('\n');
    }
    const c = h.counter;
    return '<b>' + esc(h.name) + '</b>\n' + (h.low ? 'min ' + h.low.v[h.k] + ', max ' : '') + c.v[h.k] + ' at '
      + fmtAt(c.ts[h.k]);
  }

  // ---------- interaction ----------
  function clampView(a, b) {
    const minSpan = 10, maxSpan = (home[1] - home[0]) * 20;
    let span = Math.min(maxSpan, Math.max(minSpan, b - a));
    const mid = (a + b) / 2;
    v0 = mid - span / 2; v1 = mid + span / 2;
    draw();
  }
  function zoom(factor, atX) {
    const t = tOf(atX === undefined ? LABEL_W + plotW() / 2 : atX);
    const a = t - (t - v0) * factor, b = t + (v1 - t) * factor;
    const span = b - a;
    if (span < 10 || span > (home[1] - home[0]) * 20) { return; }
    v0 = a; v1 = b;
    draw();
  }
  function pan(fraction) { const d = (v1 - v0) * fraction; v0 += d; v1 += d; draw(); }

  canvas.addEventListener('wheel', e => {
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    if (x < LABEL_W && !e.ctrlKey) { return; } // over the labels the wheel scrolls the rows
    e.preventDefault();
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      pan((e.shiftKey ? e.deltaY : e.deltaX) / plotW());
    } else {
      zoom(Math.exp(e.deltaY * 0.002), x);
    }
  }, {passive: false});
  let drag = null;
  canvas.addEventListener('mousedown', e => {
    drag = {x: e.clientX, y: e.clientY, v0, v1, top: box.scrollTop, moved: false};
    canvas.classList.add('dragging');
  });
  window.addEventListener('mouseup', e => {
    canvas.classList.remove('dragging');
    if (drag && !drag.moved) { click(e); }
    drag = null;
  });
  window.addEventListener('mousemove', e => {
    if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; }
      if (drag.moved) {
        const dt = dx * (drag.v1 - drag.v0) / plotW();
        v0 = drag.v0 - dt; v1 = drag.v1 - dt;
        box.scrollTop = drag.top - dy;
        draw();
        return;
      }
    }
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    if (x < 0 || y < 0 || x > r.width || y > r.height) { tip.style.display = 'none'; hover = null; return; }
    hover = hit(x, y);
    const text = hoverText(hover);
    if (!text) { tip.style.display = 'none'; return; }
    tip.innerHTML = text;
    tip.style.display = 'block';
    const tw = tip.offsetWidth, th = tip.offsetHeight;
    tip.style.left = Math.min(window.innerWidth - tw - 8, e.clientX + 14) + 'px';
    tip.style.top = Math.min(window.innerHeight - th - 8, e.clientY + 14) + 'px';
  });
  function click(e) {
    const r = canvas.getBoundingClientRect();
    const h = hit(e.clientX - r.left, e.clientY - r.top);
    selected = h && h.slice !== undefined ? h.slice : -1;
    selectedInstant = h && h.instant !== undefined ? h.instant : -1;
    draw();
  }
  box.addEventListener('scroll', draw);
  box.addEventListener('keydown', e => {
    const k = e.key.toLowerCase();
    if (k === 'w' || k === '+' || k === '=') { zoom(0.8); } else if (k === 's' || k === '-') { zoom(1.25); } else if (k === 'a' || k === 'arrowleft') { pan(-0.15); } else if (k === 'd' || k === 'arrowright') { pan(0.15); } else if (k === '0') { v0 = home[0]; v1 = home[1]; draw(); } else if (k === 'escape') { selected = -1; selectedInstant = -1; draw(); } else { return; }
    e.preventDefault();
  });
  document.getElementById('zin').onclick = () => zoom(0.5);
  document.getElementById('zout').onclick = () => zoom(2);
  document.getElementById('zhome').onclick = () => { v0 = home[0]; v1 = home[1]; draw(); };
  window.addEventListener('resize', resize);

  mark('dom');
  // ---------- tables ----------
  const tables = document.createElement('div');
  root.appendChild(tables);
  // a section's contents are built when it is first opened: a closed table (pmu.csv's 65,536 rows) costs nothing at
  // load. The summary's click (mouse or keyboard) builds it before the section opens; 'toggle' covers d.open = true
  function section(title, open, build) {
    const d = document.createElement('details');
    d.innerHTML = '<summary>' + esc(title) + '</summary>';
    let built = false;
    const fill = () => { if (!built) { built = true; build(d); } };
    if (open) {
      d.open = true;
      fill();
    } else {
      d.querySelector('summary').addEventListener('click', fill);
      d.addEventListener('toggle', () => { if (d.open) { fill(); } });
    }
    const s = document.createElement('section');
    s.appendChild(d);
    tables.appendChild(s);
    return d;
  }
  function table(columns, rows, opts) {
    // columns: [{name, text}], rows: arrays; sortable with a row limit for large tables
    opts = opts || {};
    const limit = opts.limit || 1e9;
    const wrap = document.createElement('div');
    let filter = null;
    if (opts.filter) {
      filter = document.createElement('input');
      filter.className = 'filter';
      filter.placeholder = opts.filter;
      wrap.appendChild(filter);
    }
    const note = document.createElement('div');
    note.className = 'note';
    const sc = document.createElement('div');
    sc.className = 'scroll';
    const t = document.createElement('table');
    sc.appendChild(t);
    wrap.appendChild(sc);
    wrap.appendChild(note);
    let order = rows.map((_, i) => i), sortCol = -1, desc = false;
    function render() {
      const q = filter ? filter.value.trim().toLowerCase() : '';
      const shown = q ? order.filter(i => rows[i].some(v => String(v).toLowerCase().includes(q))) : order;
      let h = '<thead><tr>' + columns.map((c, j) => '<th class="' + (opts.sortable ? 'sortable ' : '') + (c.text ? 'text ' : '')
        + (j === sortCol ? (desc ? 'sorted-desc' : 'sorted-asc') : '') + '" data-col="' + j + '">' + esc(c.name) + '</th>').join('') + '</tr></thead><tbody>';
      for (const i of shown.slice(0, limit)) {
        h += '<tr>' + rows[i].map((v, j) => '<td' + (columns[j].text ? ' class="text"' : '') + '>' + (columns[j].html ? v : esc(v === null || v === undefined ? '' : v)) + '</td>').join('') + '</tr>';
      }
      t.innerHTML = h + '</tbody>';
      note.textContent = shown.length > limit ? 'showing ' + limit + ' of ' + shown.length + ' rows (sort or filter to see others)' : shown.length + ' rows';
    }
    t.addEventListener('click', e => {
      const th = e.target.closest('th');
      if (!th || !opts.sortable) { return; }
      const j = +th.dataset.col;
      desc = sortCol === j ? !desc : columns[j].text ? false : true;
      sortCol = j;
      order.sort((a, b) => {
        const x = rows[a][j], y = rows[b][j];
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return desc ? -c : c;
      });
      render();
    });
    if (filter) { filter.addEventListener('input', render); }
    render();
    return wrap;
  }

  const r = D.run;
  if (r && r.subsystems) {
    section('Subsystems: records and loss', true, d => d.appendChild(table(['subsystem', 'total', 'collected', 'dropped', 'silent loss', 'stalls', 'stall time', 'records/s'].map((n, j) => ({name: n, text: j === 0})),
      r.subsystems.map(s => [s.name, s.total, s.collected, s.dropped, s.silent_loss, s.stalls.count, fmtDur(s.stalls.total_ns), Math.round(s.records_per_second)]))));
    section('Per-lane counts', false, dl => {
      const lanes = [];
      for (const s of r.subsystems) {
        for (const l of s.lanes || []) {
          const dropped = Object.values(l.dropped_by_cause || {}).reduce((a, b) => a + b, 0);
          lanes.push([s.name, l.lane, l.kind, l.role, l.instance, l.total, l.collected, dropped, l.silent_loss, l.stalls.count, fmtDur(l.stalls.total_ns), l.min_free_depth]);
        }
      }
      dl.appendChild(table(['subsystem', 'lane', 'kind', 'role', 'instance', 'total', 'collected', 'dropped', 'silent loss', 'stalls', 'stall time', 'lowest free'].map((n, j) => ({name: n, text: j === 0 || j === 2 || j === 3})), lanes, {sortable: true}));
    });
  }
  if (D.audit && D.audit.pools) {
    section('Capacity audit: λ, W, L = λ·W, margins, verdicts', true, auditSection);
  } else if (D.source !== 'perf') {
    section('Capacity audit', false, d => d.appendChild(Object.assign(document.createElement('div'), {className: 'note', textContent: 'no audit: the run did not finish, or run.json cannot be read'})));
  }
  function auditSection(d) {
    const cls = w => 'verdict-' + String(w).replace(/ /g, '-');
    d.appendChild(table(['pool', 'lanes', 'buffers', 'λ buf/s', 'W µs', 'W max µs', 'L', 'peak', 'need', 'free margin', 'ready margin', 'drops', 'stalls', 'headroom', 'verdict (decided by)', 'advice'].map((n, j) => ({name: n, text: j === 0 || j >= 14, html: j === 14})),
      D.audit.pools.map(p => [p.kind, p.lanes, p.buffers_per_lane + 'x' + p.records_per_buffer,
        p.buffers_per_second === null ? '?' : Math.round(p.buffers_per_second),
        p.recycle_mean_ns === null ? '?' : (p.recycle_mean_ns / 1e3).toFixed(1), p.recycle_max_ns === null ? '?' : (p.recycle_max_ns / 1e3).toFixed(1),
        p.little_l === null ? '?' : p.little_l.toFixed(2), p.peak_in_flight, p.need.toFixed(2),
        Math.round(100 * p.free_margin) + '%', Math.round(100 * p.ready_margin) + '%', p.dropped, p.stalls, p.headroom.toFixed(1) + 'x',
        '<span class="' + cls(p.verdict) + '">' + esc(p.verdict) + '</span> (' + esc(p.decided_by) + ')', p.advice.option || p.advice.reason])));
    const plots = document.createElement('div');
    plots.className = 'plots';
    for (const p of D.audit.pools) { plots.appendChild(poolPlot(p)); }
    d.appendChild(plots);
    if (D.audit.slowest_collector) {
      const s = D.audit.slowest_collector, n = document.createElement('div');
      n.className = 'note';
      n.textContent = 'slowest collector: ' + s.subsystem + ' lane ' + s.lane + ' (' + s.role + ' ' + s.instance + ', ' + s.kind + '): longest call ' + fmtDur(s.collect_longest_ns) + ', ' + fmtDur(s.collect_ns) + ' in all';
      d.appendChild(n);
    }
  }
  function poolPlot(p) {
    // peak in flight, L and the need against the buffers per lane (the capacity), on one scale
    const cap = p.buffers_per_lane, max = Math.max(cap, p.peak_in_flight, p.need, 1);
    const w = 200, x = v => 4 + v / max * (w - 8);
    const div = document.createElement('div');
    div.className = 'plot';
    div.innerHTML = '<div>' + esc(p.kind) + ' <span class="' + cls2(p.verdict) + '">' + esc(p.verdict) + '</span></div>'
      + '<svg width="' + w + '" height="46" role="img" aria-label="peak in flight against capacity">'
      + '<rect x="4" y="6" width="' + (x(cap) - 4) + '" height="14" fill="#e5e7eb" stroke="#9ca3af"/>'
      + '<rect x="4" y="9" width="' + Math.max(1, x(p.peak_in_flight) - 4) + '" height="8" fill="' + (p.peak_in_flight >= cap ? '#dc2626' : '#2563eb') + '"/>'
      + (p.little_l === null ? '' : '<line x1="' + x(p.little_l) + '" x2="' + x(p.little_l) + '" y1="4" y2="22" stroke="#059669" stroke-width="2"/>')
      + '<line x1="' + x(p.need) + '" x2="' + x(p.need) + '" y1="4" y2="22" stroke="#b45309" stroke-dasharray="2,2"/>'
      + '<text x="4" y="36" font-size="10" fill="#374151">peak ' + p.peak_in_flight + ' / ' + cap + ' buffers'
      + (p.little_l === null ? '' : ', L ' + p.little_l.toFixed(2)) + ', need ' + p.need.toFixed(1) + '</text></svg>';
    return div;
  }
  function cls2(w) { return 'verdict-' + String(w).replace(/ /g, '-'); }
  if (D.pmu) {
    section('PMU: per-task counters (pmu.csv)', false, d => d.appendChild(table(D.pmu.columns.map(c => ({name: c, text: c === 'task_id' || c === 'core_type'})), pmuRows(), {sortable: true, limit: 500, filter: 'filter (task id, …)'})));
  }
  if (D.scopes) {
    section('Scopes (scopes.jsonl)', false, scopesSection);
  }
  function scopesSection(d) {
    const h = D.scopes.header;
    d.appendChild(Object.assign(document.createElement('div'), {className: 'note', textContent: 'records ' + h.collected + ' of ' + h.total + ', dropped ' + h.dropped + '; deepest scope ' + h.depth_max + ', task window max ' + h.task_window_max + ', heap max ' + h.heap_max + ' B, dep pool max ' + h.dep_pool_max + ', tensor map max ' + h.tensormap_max}));
    const cols = ['time_ns', 'site', 'phase', 'depth', 'ring', 'task_window_start', 'task_window_end', 'heap_start', 'heap_end', 'dep_pool_start', 'dep_pool_end', 'tensormap'];
    const origin = D.originNs;
    d.appendChild(table(cols.map((c, j) => ({name: j === 0 ? 'time' : c, text: j === 1 || j === 2})),
      D.scopes.records.map(s => cols.map((c, j) => j === 0 ? fmtTime(s.time_ns - origin, 1) : s[c])), {sortable: true, limit: 1000}));
  }
  section('Trace metadata', false, d => d.appendChild(table([{name: 'key', text: true}, {name: 'value', text: true}], Object.entries(D.meta || {}).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v]))));

  mark('tables');
  // ---------- the contract for tests and tools ----------
  function stats() {
    const byCat = {};
    for (let i = 0; i < nSlices; i++) { const c = S[SL.cat[i]]; byCat[c] = (byCat[c] || 0) + 1; }
    const rowsByProcess = {};
    for (const p of procList) { rowsByProcess[p.name] = p.rows.map(x => D.rows[x].name); }
    return {rows: D.rows.length, processes: procList.length, slices: nSlices, instants: nInstants, flows: flowFrom.length,
      wakeups: flowName.filter(n => n === 'wakeup').length, counters: D.counters.length, slicesByCat: byCat,
      rowsByProcess, drawnRects: lastRects, loadMs: loadMs, phases};
  }
  function focusTask(taskId) {
    // zooms to the task bar (cat task) of taskId, scrolls it into view, and returns its centre in client pixels
    for (let i = 0; i < nSlices; i++) {
      if (S[SL.cat[i]] !== 'task') { continue; }
      const a = sliceArgs(i);
      if (!a || a.task_id !== taskId) { continue; }
      const s = SL.start[i], d = Math.max(SL.dur[i], 100);
      v0 = s - d; v1 = s + 2 * d;
      const top = rowTop[SL.row[i]] + sliceLevel[i] * LEVEL_H;
      box.scrollTop = Math.max(0, top - AXIS_H - 40);
      paint();
      const b = sliceBox(i, box.scrollTop), rc = canvas.getBoundingClientRect();
      return {x: rc.left + (b.x0 + b.x1) / 2, y: rc.top + b.y, slice: i};
    }
    return null;
  }
  let loadMs = 0;
  window.dfxViewer = {
    stats,
    visibleRange: () => [v0, v1],
    axis: () => ({title: AXIS_TITLE, zero: axisZero, labels: axisLabels.slice()}),
    setRange: (a, b) => { v0 = a; v1 = b; paint(); return [v0, v1]; },
    home: () => home.slice(),
    focusTask,
    select: i => { selected = i; paint(); return flowsOfSlice(i).length; },
    selectedArrows: () => (selected >= 0 ? flowsOfSlice(selected) : flowsOfInstant(selectedInstant)).length,
    counterSamples: prefix => D.counters.filter(c => !prefix || c.name.startsWith(prefix)).reduce((n, c) => n + c.ts.length, 0),
    sliceColors: cat => { const out = []; for (let i = 0; i < nSlices; i++) { if (S[SL.cat[i]] === cat) { out.push([S[SL.name[i]], barColor(i)]); } } return out; },
    slicesOfRow: name => perRow[D.rows.findIndex(r => r.name === name)]?.map(i => [SL.start[i], SL.dur[i], S[SL.cat[i]]]) || [],
    shadedWindows: cat => shades.filter(s => s.cat === cat).length,
    tipText: () => tip.style.display === 'none' ? '' : tip.textContent,
    ready: false,
  };
  resize();
  paint();
  loadMs = performance.now() - t0Load;
  // the first complete draw: the timeline, its rows and the tables are built; performance.now() counts from the
  // navigation's start, so this includes reading and parsing the page (the measure tools read: 'dfx-first-draw')
  performance.mark('dfx-first-draw');
  window.dfxViewer.ready = true;
  document.body.dataset.dfxReady = 'true';
  document.body.dataset.dfxLoadMs = String(Math.round(loadMs));
  document.body.dataset.dfxFirstDrawMs = String(Math.round(performance.now()));
  document.body.dataset.dfxPhases = JSON.stringify(phases);
})();
