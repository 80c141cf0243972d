// Loads a Chrome trace-event JSON file with Chrome's own trace engine (@paulirish/trace_engine: the model behind
// DevTools' Performance panel and Lighthouse) and prints, as one JSON line, what the engine made of it:
//   slices:      complete events (ph X) the engine placed on a thread's track
//   flows:       arrows the engine bound to slices at both ends (its Flows handler keeps only those)
//   flow_points: slices bound to those arrows, summed over the arrows
// Usage: node trace-counts.mjs TRACE.json
import fs from 'node:fs';
import * as Trace from '@paulirish/trace_engine';

const file = process.argv[2];
if (!file) {
  console.error('usage: node trace-counts.mjs TRACE.json');
  process.exit(2);
}
const json = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = Array.isArray(json) ? json : json.traceEvents;
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const data = model.parsedTrace().data;
let slices = 0;
for (const process of data.Renderer.processes.values()) {
  for (const thread of process.threads.values()) {
    slices += thread.entries.filter(e => e.ph === 'X').length;
  }
}
const flows = data.Flows.flows;
console.log(JSON.stringify({
  slices,
  flows: flows.length,
  flow_points: flows.reduce((n, f) => n + f.length, 0),
}));
