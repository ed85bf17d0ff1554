import { alertmanagerPath, alertmanagerUrl, type AlertmanagerTarget } from '@/lib/console/code-samples';

/** Where a project's Alertmanager API is, as Prometheus, amtool and Grafana are given it (docs/alertmanager.md). */
export type SenderTarget = AlertmanagerTarget;
export { alertmanagerUrl };

export const SENDER_KEY_PLACEHOLDER = '<the sender key>';
export const AMTOOL_KEY_PLACEHOLDER = '<your API key>';

/** `host:port`, the port said even when it is the scheme's own, as Prometheus's `targets` take it. */
function hostAndPort(origin: URL): string {
  const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
  return `${origin.hostname}:${port}`;
}

/** The `alerting` section of prometheus.yml that sends this project its alerts with a sender's key. */
export function prometheusSnippet(target: SenderTarget, key: string | null): string {
  const origin = new URL(target.origin);
  return [
    'alerting:',
    '  alertmanagers:',
    `    - scheme: ${origin.protocol.replace(':', '')}`,
    `      path_prefix: ${alertmanagerPath(target)}`,
    '      authorization:',
    '        type: Bearer',
    `        credentials: ${key ?? SENDER_KEY_PLACEHOLDER}`,
    '      static_configs:',
    `        - targets: ['${hostAndPort(origin)}']`,
  ].join('\n');
}

/**
 * amtool's own configuration file (~/.config/prometheus/amtool.yml): this project's URL with a key as Basic
 * auth's password, which the family takes with any user name; the key is a person's, to read and change silences.
 */
export function amtoolSnippet(target: SenderTarget, key: string | null): string {
  const url = new URL(alertmanagerUrl(target));
  const withKey = `${url.protocol}//amtool:${key ?? AMTOOL_KEY_PLACEHOLDER}@${url.host}${url.pathname}`;
  return `alertmanager.url: ${withKey}`;
}
