import { SMTPServer } from 'smtp-server';

export type Mail = { from: string; to: string[]; raw: string };

/** An SMTP server on 127.0.0.1 that keeps every message it is given (no TLS, any or no login). */
export async function startSmtp(port: number) {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          // Quoted-printable soft line breaks would split a name the tests look for.
          raw: Buffer.concat(chunks)
            .toString('utf8')
            .replace(/=\r?\n/g, ''),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    mails,
    /** Mails to one address whose raw text contains `text`. */
    to: (address: string, text: string) => mails.filter((m) => m.to.includes(address) && m.raw.includes(text)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
