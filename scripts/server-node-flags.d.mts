/** Node's own flags for the console's server process (./server-node-flags.mjs). */
export declare const SERVER_NODE_FLAGS: readonly string[];
