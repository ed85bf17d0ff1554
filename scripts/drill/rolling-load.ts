// The drill's load: a fixed number of clients, each one request at a time with a pause, reads and writes mixed.

/** What bench/prepare.ts wrote: an admin key of Acme and one silence and one subscription per client. */
export type Prepared = {
  adminKey: string;
  orgId: string;
  projectId: string;
  silenceIds: string[];
  subscriptionIds: string[];
};

export type Failure = {
  id: string;
  /** When the request was sent, and when it failed. */
  sent: number;
  at: number;
  request: string;
  status: number | null;
  server: string;
  error: string | null;
};

export type Load = {
  /** Answers 2xx so far, and every other outcome (a status, or no answer at all). */
  counts: () => { ok: number; failed: Failure[] };
  /** Starts counting from zero. */
  reset: () => void;
  stop: () => Promise<void>;
};

/** Client `c`'s `n`-th request: list keys, list silences, edit its silence, edit its subscription, in turn. */
function request(base: string, p: Prepared, c: number, n: number): { name: string; url: string; init: RequestInit } {
  const project = `${base}/v1/organizations/${p.orgId}/projects/${p.projectId}`;
  const headers = { authorization: `Bearer ${p.adminKey}`, 'content-type': 'application/json' };
  switch (n % 4) {
    case 0:
      return { name: 'GET api-keys', url: `${base}/v1/organizations/${p.orgId}/api-keys?limit=20`, init: { headers } };
    case 1:
      return { name: 'GET silences', url: `${project}/obs/silences?limit=20`, init: { headers } };
    case 2:
      return {
        name: 'PATCH silence',
        url: `${project}/obs/silences/${p.silenceIds[c % p.silenceIds.length]}`,
        init: {
          method: 'PATCH',
          headers: { ...headers, 'if-match': '*' },
          body: JSON.stringify({ comment: `drill ${c} ${n}` }),
        },
      };
    default:
      return {
        name: 'PATCH subscription',
        url: `${project}/subscriptions/${p.subscriptionIds[c % p.subscriptionIds.length]}`,
        init: { method: 'PATCH', headers, body: JSON.stringify({ batchSize: (n % 10) + 1 }) },
      };
  }
}

/** Starts `clients` loops against `base`; each waits `pauseMs` after every answer, so the load stays bounded. */
export function startLoad(base: string, p: Prepared, clients: number, pauseMs: number): Load {
  let ok = 0;
  let failed: Failure[] = [];
  let running = true;
  const loop = async (c: number) => {
    for (let n = c; running; n++) {
      const { name, url, init } = request(base, p, c, n);
      const id = `${c}-${n}`;
      const sent = Date.now();
      try {
        const headers = { ...(init.headers as Record<string, string>), 'x-drill-id': id };
        const res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.ok) ok++;
        else
          failed.push({
            id,
            sent,
            at: Date.now(),
            request: name,
            status: res.status,
            server: res.headers.get('x-drill-server') ?? '?',
            error: null,
          });
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        const error = `${String(err)}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
        failed.push({ id, sent, at: Date.now(), request: name, status: null, server: '?', error });
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const loops = Array.from({ length: clients }, (_, c) => loop(c));
  return {
    counts: () => ({ ok, failed }),
    reset: () => {
      ok = 0;
      failed = [];
    },
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}
