import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Files sent with the mail (a CFDI's PDF and XML); the outbox keeps them beside the mail. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** SMTP when configured; otherwise each mail becomes a file in the outbox and its text is logged. */
export function createMailer(opts: { smtpUrl?: string | undefined; from: string; outboxDir: string; log: (line: string) => void }): Mailer {
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    // The SMTP library is loaded with the first mail (a password link, a report), not at start.
    let transport: Promise<Transporter> | null = null;
    return {
      async send(mail) {
        transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
        await (
          await transport
        ).sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.attachments ? { attachments: mail.attachments } : {}),
        });
      },
    };
  }
  return {
    async send(mail) {
      await mkdir(opts.outboxDir, { recursive: true });
      const file = join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to}.txt`);
      await writeFile(file, `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`);
      for (const a of mail.attachments ?? []) await writeFile(`${file.slice(0, -'.txt'.length)}-${a.filename}`, a.content);
      opts.log(`Correo para ${mail.to} guardado en ${file}:\n${mail.text}`);
    },
  };
}
