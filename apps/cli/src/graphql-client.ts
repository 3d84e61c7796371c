/** A minimal GraphQL-over-HTTP client for the commands that act through the running service. */
export class ServiceClient {
  constructor(
    private readonly url: string,
    private readonly key: string | undefined,
    /** Where a key would have been read from when none was given. */
    private readonly keyFile: string,
  ) {}

  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    if (!this.key)
      throw new CliError(
        `an API key is needed: pass --key, set WEFT_API_KEY, or run beside the service's store (${this.keyFile} holds the first admin key); see "weft keys create"`,
      );
    let response: Response;
    try {
      response = await fetch(`${this.url.replace(/\/$/, '')}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.key}` },
        body: JSON.stringify({ query, variables }),
      });
    } catch {
      throw new CliError(`cannot reach the weft service at ${this.url} (is "npm start" running? set --url or WEFT_URL)`);
    }
    const body = (await response.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
    if (body.errors?.length) throw new CliError(body.errors.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('\n'));
    return body.data as T;
  }
}

/** An error to show as it is, without a stack trace, ending the command with exit code 1. */
export class CliError extends Error {}
