// The web session's cookie, shared by the web app (which sets it at login) and the API (which accepts it as a
// credential from the same origin). Its value is the session token (src/auth/token-format.ts, kind `sessao`).

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
