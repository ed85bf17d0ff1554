import type { AuditEvent } from '../db/audit-types';

export const CSV_COLUMNS = [
  'seq',
  'id',
  'occurredAt',
  'action',
  'actorType',
  'actorId',
  'actorName',
  'actorVia',
  'actorCredential',
  'targetType',
  'targetId',
  'targetName',
  'projectId',
  'reason',
  'changes',
  'requestId',
  'ip',
  'userAgent',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a separator, quote or line break. A text cell starting with
 * `=`, `+`, `-`, `@`, tab or CR gets a leading `'`, so a spreadsheet never runs it as a formula.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function csvRow(e: AuditEvent): string {
  const cells = [
    e.seq,
    e.id,
    e.occurredAt,
    e.action,
    e.actor.type,
    e.actor.id,
    e.actor.name,
    e.actor.via,
    e.actor.credential,
    e.target.type,
    e.target.id,
    e.target.name,
    e.projectId,
    e.reason,
    e.changes.length > 0 ? JSON.stringify(e.changes) : '',
    e.context.requestId,
    e.context.ip,
    e.context.userAgent,
  ];
  return `${cells.map(csvField).join(',')}\r\n`;
}

export function ndjsonLine(e: AuditEvent): string {
  return `${JSON.stringify(e)}\n`;
}

/** A byte stream of the batches in the format, pulled batch by batch (backpressure: one batch in memory). */
export function exportStream(
  batches: AsyncIterable<AuditEvent[]>,
  format: 'ndjson' | 'csv',
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = '';
      if (!started && format === 'csv') text = csvHeader();
      started = true;
      const next = await iterator.next();
      if (!next.done) text += next.value.map(format === 'csv' ? csvRow : ndjsonLine).join('');
      if (text) controller.enqueue(encoder.encode(text));
      if (next.done) controller.close();
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
