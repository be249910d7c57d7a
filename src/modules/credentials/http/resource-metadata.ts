// OAuth 2.0 Protected Resource Metadata (RFC 9728) of what the credential layer guards: where a resource's
// document lives and what it says. Tokens are made in the web app or by the CLI, never by an OAuth
// authorization server of ours: so no `authorization_servers` (the member is optional, section 2), and a client
// that follows the document learns the scopes, that the token goes in the Authorization header, and the DPoP
// algorithms a bound token's proofs may use.

export const WELL_KNOWN = '/.well-known/oauth-protected-resource'

/**
 * Section 3.1: the well-known segment goes between the host and the resource's path, so `https://h/api/mcp` is
 * described at `https://h/.well-known/oauth-protected-resource/api/mcp`; `path` '' is the origin itself.
 */
export function resourceMetadataUrl(publicUrl: string, path: string): string {
  return `${publicUrl}${WELL_KNOWN}${path}`
}

export type ResourceMetadata = {
  resource: string
  resource_name: string
  scopes_supported: string[]
  bearer_methods_supported: ['header']
  dpop_signing_alg_values_supported: string[]
  resource_documentation: string
}

/**
 * The document of the resource at `path` ('' for the whole API). Section 3.3: `resource` must be the URL the
 * document's address was made from, or the client discards it.
 */
export function resourceMetadata(
  publicUrl: string, path: string, opts: { name: string, scopes: readonly string[], algs: readonly string[] },
): ResourceMetadata {
  return {
    resource: publicUrl + path,
    resource_name: opts.name,
    scopes_supported: [...opts.scopes],
    bearer_methods_supported: ['header'],
    dpop_signing_alg_values_supported: [...opts.algs],
    resource_documentation: `${publicUrl}/docs`,
  }
}
