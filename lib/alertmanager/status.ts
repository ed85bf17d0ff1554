/** The Alertmanager release whose v2 API this family speaks: clients read `versionInfo.version` as semver. */
export const ALERTMANAGER_VERSION = '0.25.0';

/** A valid Alertmanager configuration (amtool and Grafana parse it): one route to the receiver `null`. */
export const ALERTMANAGER_CONFIG = [
  'global:',
  '  resolve_timeout: 5m',
  'route:',
  '  receiver: "project"',
  'receivers:',
  '  - name: "project"',
  'templates: []',
  '',
].join('\n');

const startedAt = new Date();

export function alertmanagerStatus() {
  return {
    cluster: { status: 'disabled' as const, peers: [], name: '' },
    versionInfo: {
      branch: 'svc-console',
      buildDate: '',
      buildUser: '',
      goVersion: '',
      revision: '',
      version: ALERTMANAGER_VERSION,
    },
    config: { original: ALERTMANAGER_CONFIG },
    uptime: startedAt.toISOString(),
  };
}
