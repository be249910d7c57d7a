/** A message's Message-ID, from its protocolo: a resend (a retry, a lease taken over) is the same message to mail systems. */
export function messageIdFor(protocolo: string, mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'localhost'
  return `<${protocolo.toLowerCase()}@${domain}>`
}
