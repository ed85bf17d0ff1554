// Node's own flags for the console's server process: `npm start` passes them, and so do the bench and the drills
// that start it as production does. Node refuses V8's heap flags in NODE_OPTIONS, so they go on the command line.
//
// --max-semi-space-size=64: the young generation, where a request's short-lived objects are born, may grow to
// 64 MB a half instead of 16. With 16 MB halves a scavenge under load copied (then promoted to the old generation)
// whatever the requests still in flight held, which later cost mark-compact pauses; the figures, and the resident
// memory it costs, are in docs/benchmarks.md ("Measured reasons in the code").
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

// Node's arguments for the server as `npm start` runs it: these flags, then the start script.
export const SERVER_ARGS = [...SERVER_NODE_FLAGS, 'scripts/start.mjs'];
