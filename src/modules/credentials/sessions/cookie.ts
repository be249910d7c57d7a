// The web session's cookie, shared by the web app (which sets it at login) and the API (which accepts it as a
// credential from the same origin). Its value is the session token (src/modules/credentials/token-format.ts, kind `sessao`).

/**
 * `__Host-` binds the cookie to this host, path `/`, and HTTPS: browsers refuse a `__Host-` cookie that is not
 * Secure, so a development server on plain http names it without the prefix (and without Secure).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-sessao' : 'sessao'
}

/** Every attribute but the value: HttpOnly, SameSite=Lax, path `/`, never a Domain (which `__Host-` forbids). */
export function sessionCookieAttributes(secure: boolean): { httpOnly: true, sameSite: 'lax', path: '/', secure: boolean } {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure }
}

/**
 * Whether the cookie is Secure (and so named `__Host-`): everywhere but development on plain http, that is in
 * production and sandbox (AMBIENTE set), or whenever the public address is https. The web app and the API both
 * decide with this, so they name the same cookie.
 */
export function sessionCookieSecure(config: { ambiente: string, publicUrl: string }): boolean {
  return config.ambiente !== '' || config.publicUrl.startsWith('https:')
}

/**
 * The one value of cookie `name` in a Cookie header; undefined when absent, or when sent more than once with
 * different values (a cookie planted by a sibling host beside ours: neither is trusted).
 */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  if (typeof header !== 'string') return undefined
  let value: string | undefined
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=')
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue
    const v = pair.slice(eq + 1).trim()
    if (value !== undefined && value !== v) return undefined
    value = v
  }
  return value
}
