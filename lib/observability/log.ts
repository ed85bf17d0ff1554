import pino, { type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { settings } from '../settings/settings';

/**
 * The server's log: one JSON object per line on stdout, readable text when stdout is a terminal (LOG_FORMAT
 * = json or pretty decides otherwise). Whatever a
 * line carries, these paths are censored, so a credential passed along by mistake never reaches the log.
 */
export const REDACTED_PATHS = [
  'password',
  'secret',
  'token',
  'code',
  'totp',
  'cookie',
  'authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.totp',
  '*.cookie',
  '*.authorization',
  'headers.cookie',
  'headers.authorization',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-svc-peer"]',
];

function destination(): DestinationStream {
  const format = settings().LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (format === 'pretty') return pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', sync: true });
  // Through process.stdout, whose errors scripts/start.mjs catches: a reader that went away (EPIPE) must not
  // stop the server, so once the stream is gone the lines are dropped.
  return { write: (line: string) => void (process.stdout.destroyed || process.stdout.write(line)) };
}

const state = globalThis as unknown as { __svcLog?: pino.Logger };

/** The process's logger (one per process, though Next may evaluate this module once per bundle). */
export const log: pino.Logger = (state.__svcLog ??= pino(
  {
    level: settings().LOG_LEVEL,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  },
  destination(),
));
