/**
 * The alerts of the alert routes' cost goal, shared by bench/prepare.ts (which stores them) and bench/run.ts (which
 * resends them as Prometheus does): 10,000 unresolved alerts and 1,000 silences in one project. Labels as a
 * Prometheus fleet sends them: 25 alert names over 400 hosts, each host one service and one job; one in five critical.
 * Silences mix `=` and regex matchers, a quarter of them regex only, so muting and previews test real matchers.
 */
import type { Matcher } from '../lib/silences/matchers';

export const ALERT_COUNT = 10_000;
export const SILENCE_COUNT = 1_000;
// A tenth of the silences are scheduled (start in an hour): linked, muting nothing yet.
export const SCHEDULED_EVERY = 10;

const NAMES = [
  'DiskFull',
  'DiskPressure',
  'CPUHigh',
  'CPUThrottled',
  'MemoryHigh',
  'OOMKilled',
  'HTTPErrors5xx',
  'HTTPLatencyP99',
  'TargetDown',
  'ScrapeFailed',
  'CertExpiring',
  'QueueBacklog',
  'ReplicationLag',
  'ConnectionsSaturated',
  'PodCrashLooping',
  'PodNotReady',
  'NodeNotReady',
  'NetworkErrors',
  'PacketLoss',
  'ClockSkew',
  'FilesystemReadOnly',
  'InodesLow',
  'BackupMissed',
  'JobFailed',
  'HighLoad',
];
const JOBS = Array.from({ length: 20 }, (_, i) => ['node', 'api', 'worker', 'db', 'cache'][i % 5] + `-${i}`);
const HOSTS = ALERT_COUNT / NAMES.length;

/** The i-th alert's labels: (alertname, instance) is unique, so 10,000 fingerprints. */
export function alertLabels(i: number): Record<string, string> {
  const host = Math.floor(i / NAMES.length);
  return {
    alertname: NAMES[i % NAMES.length],
    instance: `host-${host}:9100`,
    job: JOBS[host % JOBS.length],
    service: `svc-${host % 200}`,
    severity: i % 5 === 0 ? 'critical' : 'warning',
    env: 'production',
  };
}

export function alertAnnotations(i: number): Record<string, string> {
  const labels = alertLabels(i);
  return {
    summary: `${labels.alertname} on ${labels.instance}`,
    description: `${labels.alertname} has been firing on ${labels.instance} (${labels.service}) for more than 5 minutes.`,
    runbook_url: `https://runbooks.example.com/${labels.alertname.toLowerCase()}`,
  };
}

/** The i-th silence's matchers: four shapes in turn, each muting a few dozen alerts at most. */
export function silenceMatchers(i: number): Matcher[] {
  switch (i % 4) {
    case 0:
      return [
        { label: 'service', op: '=', value: `svc-${i % 200}` },
        { label: 'alertname', op: '=~', value: 'Disk.*|CPU.*' },
      ];
    case 1:
      return [
        { label: 'alertname', op: '=', value: NAMES[i % NAMES.length] },
        { label: 'instance', op: '=~', value: `host-${i % 40}[0-9]:9100` },
      ];
    case 2:
      return [
        { label: 'job', op: '=', value: JOBS[i % JOBS.length] },
        { label: 'instance', op: '=', value: `host-${i % HOSTS}:9100` },
        { label: 'severity', op: '!=', value: 'critical' },
      ];
    default:
      return [{ label: 'instance', op: '=~', value: `host-${i % HOSTS}:.*` }];
  }
}
