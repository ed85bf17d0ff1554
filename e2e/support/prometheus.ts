import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProcess, untilReady, type Running } from './spawn-server';

/** Where Prometheus sends its alerts: this project as docs/alertmanager.md configures it, or a section pasted as is. */
type AlertingSection =
  | {
      /** The Alertmanager's host and port (`127.0.0.1:3210`) and the project's path prefix. */
      target: string;
      pathPrefix: string;
      /** The API key Prometheus sends as its bearer token. */
      key: string;
    }
  | {
      /** prometheus.yml's whole `alerting:` section, as a page offers it to copy. */
      alerting: string;
    };

export type PrometheusOptions = AlertingSection & {
  /** Labels of the one rule, which always fires (`expr: vector(1)`); its alert name is `alertname`. */
  alertname: string;
  labels: Record<string, string>;
  port: number;
};

export type Prometheus = Running & { url: string };

/**
 * Debian's real Prometheus with one always-firing rule and this project as its Alertmanager, exactly as
 * docs/alertmanager.md configures it, evaluating every second and resending every second (STACK.md), so its alert
 * arrives within seconds. Its data folder is its own and removed when it stops.
 */
export async function startPrometheus(options: PrometheusOptions): Promise<Prometheus> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
  const rules = path.join(dir, 'rules.yml');
  const labels = Object.entries(options.labels).map(([k, v]) => `          ${k}: ${JSON.stringify(v)}`);
  writeFileSync(
    rules,
    [
      'groups:',
      '  - name: e2e',
      '    rules:',
      `      - alert: ${options.alertname}`,
      '        expr: vector(1)',
      '        labels:',
      ...labels,
      '        annotations:',
      '          summary: "always firing, from an e2e test"',
      '',
    ].join('\n'),
  );
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  evaluation_interval: 1s',
      `rule_files: [${JSON.stringify(rules)}]`,
      ...('alerting' in options
        ? [options.alerting]
        : [
            'alerting:',
            '  alertmanagers:',
            `    - static_configs: [{targets: [${JSON.stringify(options.target)}]}]`,
            `      path_prefix: ${JSON.stringify(options.pathPrefix)}`,
            `      authorization: {type: Bearer, credentials: ${JSON.stringify(options.key)}}`,
          ]),
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${options.port}`;
  const running = startProcess('prometheus', [
    `--config.file=${config}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${options.port}`,
    '--rules.alert.resend-delay=1s',
  ]);
  await untilReady(running, `${url}/-/ready`, 'prometheus');
  return {
    ...running,
    url,
    stop: async () => {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A counter of Prometheus's own `/metrics`, summed over its label sets (0 when absent). */
export async function prometheusCounter(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
