/** Node's own flags for the console's server process (./server-node-flags.mjs). */
export declare const SERVER_NODE_FLAGS: readonly string[];
/** Node's arguments for the server as `npm start` runs it: the flags, then scripts/start.mjs. */
export declare const SERVER_ARGS: readonly string[];
